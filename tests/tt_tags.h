/* The per-type bodies of a test (TT_CASE, a tests/NAME_case.h header) instantiated for the tags s
 * (float, int32_t), d (double, int32_t) and dl (double, int64_t), each with real line numbers
 * (docs/TESTING.md, "How a test program is laid out"). No include guard: once per TT_CASE. */
#define TT_TAG s
#define TT_VAL float
#define TT_IDX int32_t
#include TT_CASE
#define TT_TAG d
#define TT_VAL double
#define TT_IDX int32_t
#include TT_CASE
#define TT_TAG dl
#define TT_VAL double
#define TT_IDX int64_t
#include TT_CASE
#undef TT_CASE
