/* A program outside the repository that uses the installed package: #include <spmv/spmv.h>.
 * Built by tests/pkg_check.sh with pkg-config (gcc, g++, clang) and with CMake (find_package). */
#include <spmv/spmv.h>
#include <stdio.h>

int main(void) {
    /* the 3x3 matrix [2 -1 0; -1 2 -1; 0 -1 2] wrapped without a copy, times x = (1, 2, 3) */
    int32_t rp[] = {0, 2, 5, 7}, ci[] = {0, 1, 0, 1, 2, 1, 2};
    double v[] = {2, -1, -1, 2, -1, -1, 2}, x[] = {1, 2, 3}, y[3], want[] = {0, 0, 4};
    spmv_d_csr A;
    int i, bad = 0;
    if (spmv_d_csr_wrap(&A, 3, 3, rp, ci, v, NULL, NULL) != SPMV_OK || spmv_d_csr_mv(&A, 1.0, x, 0.0, y) != SPMV_OK) {
        printf("FAIL: consumer: wrap or product failed\n");
        return 1;
    }
    for (i = 0; i < 3; i++) bad |= y[i] != want[i];
    spmv_d_csr_free(&A);
    printf("%s: consumer of spmv %s (SPMV_VERSION %d): y = %g %g %g\n", bad ? "FAIL" : "ok", SPMV_VERSION_STRING,
           SPMV_VERSION, y[0], y[1], y[2]);
    return bad;
}
