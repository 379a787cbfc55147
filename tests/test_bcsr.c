/* BCSR (bcsr): what the generic contract test (test_format.c) does not see — the layout slot
 * by slot on a hand-made matrix (column-major blocks, block columns ascending, presence bits,
 * an explicit zero kept, dimensions not multiples of bs), fill never turning x = Inf into NaN,
 * duplicates of a wrapped CSR summed, the size caps, every bs from 2 to 32 x every backend x
 * 1-3 threads on small matrices with empty block rows and a dense row, the block-size
 * estimate on block-structured matrices, and the tuner. Every check runs for s
 * (float/int32), d (double/int32) and dl (double/int64). */
#define SPMV_PAR_MIN_NNZ 1 /* small matrices split over threads too */
#include "test_preamble.h"

#define TT_CASE "test_bcsr_case.h"
#include "tt_tags.h"

int main(void) {
    test_s_all();
    test_d_all();
    test_dl_all();
    CHECK(th_alloc_live == 0, "allocations still live at exit: %ld", th_alloc_live);
    return check_finish("test_bcsr");
}
