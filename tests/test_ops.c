/* The products beyond y = Ax (formats/csr_ops.h, formats/any.h): the transpose (csr_transpose,
 * csr_mvt, every host format built from A^T, any_mvt), SpMM (csr_mm, any_mm's per-vector
 * fallback), for s, d and dl, each against a long-double reference: edge shapes (0 x 0, 0 x n,
 * n x 0, rectangular, empty rows, a dense row and column, an explicit zero), Inf/NaN in x,
 * 1-3 threads, k = 1..33 in both layouts with ld > k, bad arguments, allocation failures, and
 * the real matrices up to 200k entries (double, int32). */
#include <math.h>
#include "test_preamble.h"

#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#define TT_IDX_REAL 0
#include "test_ops_case.h"
#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#define TT_IDX_REAL 1
#include "test_ops_case.h"
#define TT_TAG dl
#define TT_VAL double
#define TT_IDX int64_t
#define TT_IDX_REAL 0
#include "test_ops_case.h"

int main(void) {
    test_s_all();
    test_d_all();
    test_dl_all();
    return check_finish("test_ops");
}
