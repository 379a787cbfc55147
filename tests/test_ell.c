/* ELL family (ell, ellr, hll, sell, jad, hyb): what the generic contract test (test_format.c) does not
 * see — the layouts entry by entry on a hand-made matrix (column-major slices, the padding
 * column and value, row lengths, the sell permutation), sell with sigma = 1 equal to hll, the
 * JAD's sorted jagged diagonals, HYB's ELL part and COO tail and its K rule, the
 * size caps (fill, the index type, the physical memory) against sizes computed by hand,
 * parameter sweeps (hs, c, sigma, K, thread counts) against the long-double reference, and the
 * tuners. Every check runs for s (float/int32), d (double/int32) and dl (double/int64). */
#define SPMV_PAR_MIN_NNZ 1 /* small matrices split over threads too */
#define SPMV_ELL_BIG 0     /* the kernel of the big matrices (groups of 8 vectors) on these small ones */
#include "test_preamble.h"


#define TT_CASE "test_ell_case.h"
#include "tt_tags.h"

int main(void) {
    test_s_all();
    test_d_all();
    test_dl_all();
    return check_finish("test_ell");
}
