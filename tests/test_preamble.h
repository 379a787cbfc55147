/* The set-up of the test programs that run the tags s, d and a user-instantiated dl
 * (double/int64): harness phase 1, the library with dl, harness phase 2 (tests/harness.h).
 * A program defines its compile-time constants (SPMV_PAR_MIN_NNZ, ...) before including it;
 * the per-type bodies follow, one tests/<name>_case.h per (TT_TAG, TT_VAL, TT_IDX). */
#include "harness.h"
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "spmv.h"
#include "harness.h"
