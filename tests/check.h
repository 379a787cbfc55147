/* Minimal test harness: each check counts as one test. Every test program ends by
 * printing "RESULT passed=N failed=N skipped=N"; tests/run.sh adds them up. */
#ifndef SPMV_TEST_CHECK_H
#define SPMV_TEST_CHECK_H
#include <stdio.h>
#include <stdarg.h>

static int check_passed_, check_failed_, check_skipped_;

static void check_report_(int ok, const char *file, int line, const char *fmt, ...) {
    if (ok) {
        check_passed_++;
        return;
    }
    check_failed_++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stdout, "FAIL %s:%d: ", file, line);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    fflush(stdout);
    va_end(ap);
}
/* CHECK(cond, printf-format, args...) : one test; prints the message on failure. */
#define CHECK(cond, ...) check_report_(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

/* A skipped test, with the reason printed (never counted as passed). */
static void check_skip(const char *fmt, ...) {
    va_list ap;
    check_skipped_++;
    va_start(ap, fmt);
    fputs("SKIP: ", stdout);
    vfprintf(stdout, fmt, ap);
    fputc('\n', stdout);
    va_end(ap);
}

static int check_finish(const char *name) {
    printf("RESULT %s passed=%d failed=%d skipped=%d\n", name, check_passed_, check_failed_, check_skipped_);
    return check_failed_ ? 1 : 0;
}
#endif
