/* The tools' CSV files (spmv bench --csv, spmv-mpi bench --csv) under the library's
 * file-writing contract (formats/io/mm.h: "Output files"): rows go to an anonymous temporary
 * while the run lasts, and at the end the whole text is written beside the target and renamed
 * into place (a file the user cannot write is refused; another user's file is written in
 * place; a symbolic link keeps the link; an interrupted run leaves the target as it was).
 * Whether the target can be written is checked first, so a long run does not end in an
 * error it could have said at the start. Include after spmv.h. */
#ifndef SPMV_BENCH_TOOL_OUT_H
#define SPMV_BENCH_TOOL_OUT_H
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* 0 when path could be written (an existing file the user may write, or a new name in a
 * directory that takes files); else -1 with the reason in why */
static int tool_out_check(const char *path, char *why, size_t n) {
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (access(path, F_OK) == 0) {
        if (access(path, W_OK) == 0) return 0;
        snprintf(why, n, "%s", strerror(errno));
        return -1;
    }
    if (!slash) snprintf(dir, sizeof dir, ".");
    else snprintf(dir, sizeof dir, "%.*s", (int)(slash == path ? 1 : slash - path), path);
    if (access(dir, W_OK | X_OK) == 0) return 0;
    snprintf(why, n, "%s", strerror(errno));
    return -1;
}

/* the temporary's text written to path (the writer of formats/io/mm.h); closes tmp */
static spmv_status tool_out_finish(FILE *tmp, const char *path, spmv_error *e) {
    spmv__mm_writer w;
    spmv_status st;
    char buf[65536];
    size_t got;
    if (fflush(tmp) != 0 || ferror(tmp) || fseek(tmp, 0, SEEK_SET) != 0) {
        snprintf(e->msg, sizeof e->msg, "error writing the temporary for '%.100s': %s", path, strerror(errno));
        fclose(tmp);
        return SPMV_ERR_IO;
    }
    if ((st = spmv__mm_wopen(&w, path, e)) != SPMV_OK) {
        fclose(tmp);
        return st;
    }
    while ((got = fread(buf, 1, sizeof buf, tmp)) > 0) spmv__mm_wraw(&w, buf, got);
    if (ferror(tmp)) w.failed = 1, w.errnum = errno;
    fclose(tmp);
    return spmv__mm_wclose(&w, path, e);
}
#endif
