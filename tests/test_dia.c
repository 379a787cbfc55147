/* DIA family (dia, hdia): what the generic contract test (test_format.c) does not see —
 * the layouts slot by slot on a hand-made matrix (offsets ascending, dense diagonals, the
 * presence bits, an explicit zero kept, hacks with their own offsets), padding never
 * multiplied (x = Inf in a padded column), duplicates of a wrapped CSR summed, the size
 * caps (fill, the index type, the physical memory) against sizes computed by hand, hack
 * size x thread sweeps against the long-double reference, and the tuner. Every check runs
 * for s (float/int32), d (double/int32) and dl (double/int64). */
#define SPMV_PAR_MIN_NNZ 1 /* small matrices split over threads too */
#include "test_preamble.h"

#define TT_CASE "test_dia_case.h"
#include "tt_tags.h"

int main(void) {
    test_s_all();
    test_d_all();
    test_dl_all();
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_dia");
}
