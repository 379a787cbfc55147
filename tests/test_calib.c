/* The calibration cache (formats/calib.h) and the selection's budget (formats/auto.h):
 *  - a measurement's numbers in their ranges, saved and loaded back for its key; other keys of
 *    the same machine kept by a save, another machine's lines dropped;
 *  - refused with a status and a message, the caller's struct unchanged: a missing file, one
 *    that is not a calibration (wrong header, a value out of range, a truncated or overlong
 *    line, binary bytes, an empty file), another machine's, no line for the key;
 *  - a save that cannot be written (a directory, a parent that is a file, a missing directory)
 *    is SPMV_ERR_IO and leaves the old file as it was;
 *  - the selection with each of those files: it succeeds on built-in values, says why in
 *    rep.cal_note, and never writes outside the path it was given; off means no file at all;
 *    with enough at stake it measures and caches into the default path (HOME in a temporary
 *    directory);
 *  - the budget: few expected products give CSR untimed (uninspected below an inspection's
 *    worth), many give trials; the trials' budget never exceeds what looking may cost;
 *  - the ISA per format: SPMV_ISA_AUTO follows a file's picks (a format named generic builds
 *    generic, directly, through the handle and in the selection), the built-in order without
 *    them (no file, another key, another machine, a damaged line), $SPMV_ISA and an explicit
 *    ISA above them, a replaced file read again; a measurement picks, saves and loads back
 *    beside the CSR line. */
#define SPMV_TAG dl
#define SPMV_VAL double
#define SPMV_IDX int64_t
#include "harness.h"
#include "spmv.h"
#include "harness.h"
#include <unistd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <errno.h>

static char dir[] = "/tmp/spmv-test-calib-XXXXXX";

static const char *put(const char *name, const char *text, char *buf, size_t n) {
    return th_put_file(dir, name, text, buf, n);
}
static int exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0;
}
static int file_has(const char *p, const char *needle) { /* 1: the file's text holds needle */
    char buf[8192];
    size_t n;
    FILE *f = fopen(p, "r");
    if (!f) return 0;
    n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return strstr(buf, needle) != NULL;
}
static long fsize(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 ? (long)st.st_size : -1;
}

static spmv_calibration measured;

static void file_cases(void) {
    spmv_calibration c, k;
    spmv_error e;
    spmv_status st;
    char p[600], q[600], line[1200], good[1200];
    long n0;
    st = spmv_dl_calibrate(&measured, 0, SPMV_ISA_AUTO, &e);
    CHECK(st == SPMV_OK && measured.measured, "calibrate: %s (%s)", spmv_status_str(st), e.msg);
    CHECK(measured.bw >= 1e8 && measured.bw <= 1e13 && measured.cache_s > 0 && measured.cache_s <= 1e-6 &&
              measured.fixed_s >= 0 && measured.feat_s >= 0 && measured.threads >= 1 && measured.value_bytes == 8 &&
              measured.index_bytes == 8 && measured.isa != SPMV_ISA_AUTO,
          "calibrate: values in range (bw %g, cache %g, fixed %g)", measured.bw, measured.cache_s, measured.fixed_s);
    snprintf(p, sizeof p, "%s/cal", dir);
    CHECK(spmv_calibration_save(p, &measured, 0, &e) == SPMV_OK, "save: %s", e.msg);
    spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
    st = spmv_calibration_load(p, &c, &e);
    CHECK(st == SPMV_OK && c.measured && fabs(c.bw / measured.bw - 1) < 1e-3 &&
              fabs(c.cache_s / measured.cache_s - 1) < 1e-3 && !strcmp(c.machine, measured.machine),
          "load back: %s (%s)", spmv_status_str(st), e.msg);
    /* a second key of the same machine kept, then both load */
    k = measured;
    k.threads = measured.threads + 3;
    k.bw = 1e9;
    CHECK(spmv_calibration_save(p, &k, 0, &e) == SPMV_OK, "save a second key: %s", e.msg);
    spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
    CHECK(spmv_calibration_load(p, &c, &e) == SPMV_OK && fabs(c.bw / measured.bw - 1) < 1e-3, "first key kept: %s",
          e.msg);
    spmv_calibration_builtin(&c, measured.threads + 3, 8, 8, measured.isa);
    CHECK(spmv_calibration_load(p, &c, &e) == SPMV_OK && c.bw == 1e9, "second key: %s", e.msg);
    /* no line for this key: refused, c unchanged */
    spmv_calibration_builtin(&c, measured.threads + 1, 8, 8, measured.isa);
    k = c;
    st = spmv_calibration_load(p, &c, &e);
    CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "no line") && !memcmp(&c, &k, sizeof c), "no key: %s (%s)",
          spmv_status_str(st), e.msg);
    /* the good line, for the damaged variants */
    {
        FILE *f = fopen(p, "r");
        good[0] = 0;
        if (f) {
            if (fgets(line, sizeof line, f) && fgets(good, sizeof good, f)) good[strcspn(good, "\n")] = 0;
            fclose(f);
        }
        CHECK(!strncmp(good, "machine ", 8), "the file's line: '%s'", good);
    }
    {
        static const char *const bad_bw[] = {"bw 0 ", "bw nan ", "bw -3 ", "bw 1e30 "};
        struct {
            const char *what, *text;
        } cases[8];
        char texts[8][1400];
        int i, nc = 0;
        char *bw = strstr(good, "bw ");
        const size_t pre = bw ? (size_t)(bw - good) : 0;
        const char *after = bw ? strchr(bw + 3, ' ') + 1 : "";
        cases[nc].what = "wrong header";
        snprintf(texts[nc], sizeof texts[nc], "%%%%spmv calibration 9\n%s\n", good);
        nc++;
        for (i = 0; i < 4; i++) {
            cases[nc].what = bad_bw[i];
            snprintf(texts[nc], sizeof texts[nc], "%%%%spmv calibration 1\n%.*s%s%s\n", (int)pre, good, bad_bw[i], after);
            nc++;
        }
        cases[nc].what = "truncated line";
        snprintf(texts[nc], sizeof texts[nc], "%%%%spmv calibration 1\n%.*s\n", (int)(strlen(good) / 2), good);
        nc++;
        cases[nc].what = "binary";
        snprintf(texts[nc], sizeof texts[nc], "\x7f" "ELF\x01\x02\x03 garbage\n");
        nc++;
        cases[nc].what = "empty";
        texts[nc][0] = 0;
        nc++;
        for (i = 0; i < nc; i++) {
            cases[i].text = texts[i];
            put("bad", cases[i].text, q, sizeof q);
            spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
            k = c;
            st = spmv_calibration_load(q, &c, &e);
            CHECK(st == SPMV_ERR_PARSE && e.msg[0] && !memcmp(&c, &k, sizeof c), "corrupt (%s): %s (%s)", cases[i].what,
                  spmv_status_str(st), e.msg);
        }
        /* an overlong line */
        {
            FILE *f = fopen(q, "w");
            int j;
            if (f) {
                fputs("%%spmv calibration 1\nmachine ", f);
                for (j = 0; j < 3000; j++) fputc('x', f);
                fputs(" | threads 2\n", f);
                fclose(f);
            }
            st = spmv_calibration_load(q, &c, &e);
            CHECK(st == SPMV_ERR_PARSE, "overlong line: %s (%s)", spmv_status_str(st), e.msg);
        }
        /* another machine's */
        snprintf(texts[0], sizeof texts[0], "%%%%spmv calibration 1\nmachine Some Other CPU, 96 CPUs, LLC 1 KiB %s\n",
                 strchr(good, '|'));
        put("foreign", texts[0], q, sizeof q);
        spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
        st = spmv_calibration_load(q, &c, &e);
        CHECK(st == SPMV_ERR_ARG && strstr(e.msg, "another machine"), "foreign: %s (%s)", spmv_status_str(st), e.msg);
        /* saving over it drops the other machine's line */
        CHECK(spmv_calibration_save(q, &measured, 0, &e) == SPMV_OK, "save over a foreign file: %s", e.msg);
        spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
        CHECK(spmv_calibration_load(q, &c, &e) == SPMV_OK, "foreign replaced: %s", e.msg);
        /* a damaged calibration (its header, then garbage) is ours: replaced */
        put("bad", "%%spmv calibration 1\ngarbage\n", q, sizeof q);
        CHECK(spmv_calibration_save(q, &measured, 0, &e) == SPMV_OK, "save over a damaged file: %s", e.msg);
        spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
        CHECK(spmv_calibration_load(q, &c, &e) == SPMV_OK, "damaged replaced: %s", e.msg);
    }
    /* missing */
    snprintf(q, sizeof q, "%s/none", dir);
    st = spmv_calibration_load(q, &c, &e);
    CHECK(st == SPMV_ERR_IO && e.msg[0], "missing: %s", spmv_status_str(st));
    /* unwritable: a directory, a parent that is a regular file, a missing directory */
    n0 = fsize(p);
    st = spmv_calibration_save(dir, &measured, 0, &e);
    CHECK(st == SPMV_ERR_IO && e.msg[0], "save to a directory: %s (%s)", spmv_status_str(st), e.msg);
    snprintf(q, sizeof q, "%s/cal/sub", dir);
    st = spmv_calibration_save(q, &measured, 1, &e);
    CHECK(st == SPMV_ERR_IO && e.msg[0] && fsize(p) == n0, "save under a file: %s (%s)", spmv_status_str(st), e.msg);
    snprintf(q, sizeof q, "%s/no/such/dir/cal", dir);
    st = spmv_calibration_save(q, &measured, 0, &e);
    CHECK(st == SPMV_ERR_IO && !exists(q), "save into a missing directory: %s (%s)", spmv_status_str(st), e.msg);
    /* arguments */
    CHECK(spmv_calibration_load(NULL, &c, &e) == SPMV_ERR_ARG, "load NULL path");
    k = measured;
    k.measured = 0;
    CHECK(spmv_calibration_save(p, &k, 0, &e) == SPMV_ERR_ARG, "save of built-in values refused");
    CHECK(spmv_dl_calibrate(NULL, 0, SPMV_ISA_AUTO, &e) == SPMV_ERR_ARG, "calibrate NULL");
    /* the default path */
    setenv("SPMV_CALIBRATION", "off", 1);
    CHECK(!spmv_calibration_default_path(q, sizeof q) && spmv_calibration_off(), "off: no path");
    setenv("SPMV_CALIBRATION", "/x/y", 1);
    CHECK(spmv_calibration_default_path(q, sizeof q) && !strcmp(q, "/x/y"), "SPMV_CALIBRATION path: %s", q);
    unsetenv("SPMV_CALIBRATION");
    setenv("XDG_CACHE_HOME", "/xdg", 1);
    CHECK(spmv_calibration_default_path(q, sizeof q) && !strcmp(q, "/xdg/spmv/calibration"), "XDG: %s", q);
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/home/u", 1);
    CHECK(spmv_calibration_default_path(q, sizeof q) && !strcmp(q, "/home/u/.cache/spmv/calibration"), "HOME: %s", q);
    unsetenv("HOME");
    CHECK(!spmv_calibration_default_path(q, sizeof q), "no HOME: no path");
    CHECK(!spmv_calibration_default_path(q, 8) || strlen(q) < 8, "short buffer");
}

/* the selection on a matrix of about 300k entries with each calibration file */
static void selection_cases(void) {
    spmv_triplets t;
    spmv_dl_csr A;
    spmv_dl_auto M;
    spmv_opts o = spmv_opts_default();
    spmv_error e;
    spmv_status st;
    char p[600], home[600], q[700];
    int i;
    memset(&t, 0, sizeof t);
    CHECK(spmv_gen("stencil3d:n=32", &t, &e) == SPMV_OK, "gen: %s", e.msg);
    CHECK(spmv_dl_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK, "csr");
    spmv_triplets_free(&t);
    {
        static const char *const files[] = {"bad", "foreign", "none", "cal"};
        for (i = 0; i < 4; i++) {
            snprintf(p, sizeof p, "%s/%s", dir, files[i]);
            if (i == 0) put("bad", "%%spmv calibration 1\nmachine x\n", p, sizeof p);
            if (i == 1) put("foreign", "%%spmv calibration 1\nmachine Other, 1 CPUs, LLC 1 KiB | threads 2 value 8 "
                                       "index 8 isa generic bw 1e10 cache_s 1e-9 fixed_s 1e-6 fresh_s_per_mb 1e-4 "
                                       "feat_s 1e-9\n", p, sizeof p);
            setenv("SPMV_CALIBRATION", p, 1);
            {
                const long n0 = fsize(p);
                st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
                CHECK(st == SPMV_OK, "%s: selection: %s", files[i], e.msg);
                CHECK(i == 3 ? strstr(M.rep.cal_note, "this machine") != NULL
                             : strstr(M.rep.cal_note, "built-in values") != NULL,
                      "%s: note '%s'", files[i], M.rep.cal_note);
                CHECK(fsize(p) == n0, "%s: the file untouched by a selection with little at stake", files[i]);
                spmv_dl_auto_free(&M);
            }
        }
    }
    /* off: opts and environment */
    setenv("SPMV_CALIBRATION", "off", 1);
    st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK && strstr(M.rep.cal_note, "off"), "off: %s", M.rep.cal_note);
    spmv_dl_auto_free(&M);
    unsetenv("SPMV_CALIBRATION");
    o.calibration = 1;
    snprintf(home, sizeof home, "%s/home", dir);
    mkdir(home, 0700);
    setenv("HOME", home, 1);
    unsetenv("XDG_CACHE_HOME");
    o.expected_calls = 1e9; /* enough at stake to measure */
    st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
    snprintf(q, sizeof q, "%s/.cache/spmv/calibration", home);
    CHECK(st == SPMV_OK && strstr(M.rep.cal_note, "off") && !exists(q), "opts off: no file (%s)", M.rep.cal_note);
    spmv_dl_auto_free(&M);
    o.calibration = 2;
    CHECK(spmv_dl_auto_from_csr(&M, &A, &o, &e) == SPMV_ERR_ARG && strstr(e.msg, "calibration"), "calibration = 2: %s",
          e.msg);
    o.calibration = 0;
    /* default path, enough at stake: measured and cached under HOME, then loaded */
    st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK && strstr(M.rep.cal_note, "measured now") && exists(q), "measured and cached: %s",
          M.rep.cal_note);
    spmv_dl_auto_free(&M);
    st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK && strstr(M.rep.cal_note, "this machine"), "then loaded: %s", M.rep.cal_note);
    spmv_dl_auto_free(&M);
    /* enough at stake but unwritable: measured, not cached, the selection goes on */
    snprintf(p, sizeof p, "%s/cal/sub", dir);
    setenv("SPMV_CALIBRATION", p, 1);
    st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK && strstr(M.rep.cal_note, "not cached"), "unwritable: %s", M.rep.cal_note);
    spmv_dl_auto_free(&M);
    setenv("SPMV_CALIBRATION", "off", 1);
    /* the budget */
    o = spmv_opts_default();
    o.expected_calls = 100;
    st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK && M.rep.chosen == SPMV_FMT_CSR && M.rep.trials == 0 && M.rep.csr_spmv_s == 0,
          "100 products: CSR untimed (%s)", M.rep.why);
    CHECK(M.rep.features_s == 0 && strstr(M.rep.why, "uninspected"), "100 products: not inspected (%s)", M.rep.why);
    spmv_dl_auto_free(&M);
    for (i = 0; i < 3; i++) {
        o.expected_calls = i == 0 ? 1000 : i == 1 ? 1e5 : 1e7;
        st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
        CHECK(st == SPMV_OK, "%g products: %s", o.expected_calls, e.msg);
        CHECK(M.rep.trials == 0 || (M.rep.budget_s <= M.rep.risk_s * (1 + 1e-12) && M.rep.risk_s > 0),
              "%g products: budget %g s within what looking may cost %g s", o.expected_calls, M.rep.budget_s,
              M.rep.risk_s);
        CHECK(M.rep.csr_pred_s > 0, "%g products: CSR predicted", o.expected_calls);
        if (i == 2) CHECK(M.rep.trials >= 2, "%g products: candidates timed (%d)", o.expected_calls, M.rep.trials);
        spmv_dl_auto_free(&M);
    }
    /* deterministic: the rules, whatever is at stake */
    o = spmv_opts_default();
    o.deterministic = 1;
    o.expected_calls = 100;
    st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
    CHECK(st == SPMV_OK && M.rep.features_s > 0 && M.rep.trials == 0, "deterministic: inspected, untimed");
    spmv_dl_auto_free(&M);
    spmv_dl_csr_free(&A);
}

/* A file that is not a calibration is never replaced (a user's notes named by SPMV_CALIBRATION
 * were overwritten, by the tool and by the selection itself); symbolic links are not written
 * through; directories and fifos are refused before any read (a fifo blocked the selection);
 * every key is kept (a 16-line cap dropped the newest); a missing home is not created. */
static void owner_cases(void) {
    static const char notes[] = "my precious notes\n";
    spmv_calibration c, k;
    spmv_error e;
    spmv_status st;
    char p[700], q[700], r[700];
    int i, kept = 0;
    put("notes", notes, p, sizeof p);
    st = spmv_calibration_save(p, &measured, 0, &e);
    CHECK(st == SPMV_ERR_IO && strstr(e.msg, "not a calibration") && fsize(p) == (long)strlen(notes),
          "a user's file is not replaced: %s (%s)", spmv_status_str(st), e.msg);
    put("empty", "", q, sizeof q);
    st = spmv_calibration_save(q, &measured, 0, &e);
    CHECK(st == SPMV_ERR_IO && fsize(q) == 0, "an empty file is not replaced: %s", spmv_status_str(st));
    { /* the selection, measuring because much is at stake, into SPMV_CALIBRATION = the notes */
        spmv_triplets t;
        spmv_dl_csr A;
        spmv_dl_auto M;
        spmv_opts o = spmv_opts_default();
        o.expected_calls = 1e9;
        setenv("SPMV_CALIBRATION", p, 1);
        if (spmv_gen("stencil3d:n=24", &t, &e) == SPMV_OK && spmv_dl_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK) {
            st = spmv_dl_auto_from_csr(&M, &A, &o, &e);
            CHECK(st == SPMV_OK, "selection with SPMV_CALIBRATION naming a user's file: %s", spmv_status_str(st));
            if (st == SPMV_OK) spmv_dl_auto_free(&M);
            spmv_dl_csr_free(&A);
            spmv_triplets_free(&t);
        }
        setenv("SPMV_CALIBRATION", "off", 1);
        {
            FILE *f = fopen(p, "r");
            char got[64] = "";
            if (f) {
                if (!fgets(got, sizeof got, f)) got[0] = 0;
                fclose(f);
            }
            CHECK(!strcmp(got, notes), "the selection left the user's file as it was: '%s'", got);
        }
    }
    /* a symbolic link: not written through, its target unchanged; read through */
    snprintf(q, sizeof q, "%s/cal", dir);
    snprintf(r, sizeof r, "%s/link", dir);
    if (symlink(q, r) == 0) {
        const long n0 = fsize(q);
        st = spmv_calibration_save(r, &measured, 0, &e);
        CHECK(st == SPMV_ERR_IO && strstr(e.msg, "symbolic link") && fsize(q) == n0, "save through a link: %s (%s)",
              spmv_status_str(st), e.msg);
        spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
        CHECK(spmv_calibration_load(r, &c, &e) == SPMV_OK, "load through a link: %s", e.msg);
    } else check_skip("symlink: %s", strerror(errno));
    /* a directory and a fifo: SPMV_ERR_IO before any read (alarm: a blocked open fails the run) */
    spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
    st = spmv_calibration_load(dir, &c, &e);
    CHECK(st == SPMV_ERR_IO && strstr(e.msg, "not a regular file"), "load a directory: %s (%s)", spmv_status_str(st),
          e.msg);
    snprintf(r, sizeof r, "%s/fifo", dir);
    if (mkfifo(r, 0600) == 0) {
        alarm(30);
        st = spmv_calibration_load(r, &c, &e);
        CHECK(st == SPMV_ERR_IO, "load a fifo: %s (%s)", spmv_status_str(st), e.msg);
        st = spmv_calibration_save(r, &measured, 0, &e);
        CHECK(st == SPMV_ERR_IO, "save to a fifo: %s (%s)", spmv_status_str(st), e.msg);
        alarm(0);
    } else check_skip("mkfifo: %s", strerror(errno));
    /* 20 keys of one machine: every one kept */
    snprintf(q, sizeof q, "%s/many", dir);
    for (i = 1; i <= 20; i++) {
        k = measured;
        k.threads = i;
        k.bw = 1e9 * i;
        CHECK(spmv_calibration_save(q, &k, 0, &e) == SPMV_OK, "save key %d: %s", i, e.msg);
    }
    for (i = 1; i <= 20; i++) {
        spmv_calibration_builtin(&c, i, 8, 8, measured.isa);
        kept += spmv_calibration_load(q, &c, &e) == SPMV_OK && c.bw == 1e9 * i;
    }
    CHECK(kept == 20, "20 keys saved, %d kept", kept);
    { /* HOME that does not exist: the default path's directories are not made, nor HOME */
        char home[700];
        snprintf(home, sizeof home, "%s/nohome", dir);
        setenv("HOME", home, 1);
        unsetenv("XDG_CACHE_HOME");
        unsetenv("SPMV_CALIBRATION");
        CHECK(spmv_calibration_default_path(q, sizeof q), "default path under HOME");
        st = spmv_calibration_save(q, &measured, 1, &e);
        CHECK(st == SPMV_ERR_IO && !exists(home), "a missing HOME is not created: %s (%s)", spmv_status_str(st), e.msg);
        setenv("SPMV_CALIBRATION", "off", 1);
    }
}

/* two processes saving different keys into one file: one saves its key 200 times, the other
   once while the first is at work; the single save must survive (without a lock, the first
   writer's read-modify-rename dropped it in most runs) */
static void concurrent_cases(void) {
    char q[700], lk[720];
    int rep, lost = 0, runs = 0;
    snprintf(q, sizeof q, "%s/conc", dir);
    for (rep = 0; rep < 8; rep++) {
        spmv_calibration a = measured, b = measured, c;
        spmv_error e;
        pid_t pid;
        int i, status = 0;
        a.threads = 1, b.threads = 2, b.bw = 2e9;
        remove(q);
        fflush(stdout);
        if ((pid = fork()) < 0) {
            check_skip("fork: %s", strerror(errno));
            return;
        }
        if (pid == 0) {
            int bad = 0;
            for (i = 0; i < 200; i++) {
                a.bw = 1e9 + 1e6 * i; /* saved with 4 digits */
                bad += spmv_calibration_save(q, &a, 0, &e) != SPMV_OK;
            }
            _exit(bad ? 1 : 0);
        }
        for (i = 0; i < 20000 && !exists(q); i++) usleep(100); /* the other writer has begun */
        usleep(200 * (rep + 1));
        CHECK(spmv_calibration_save(q, &b, 0, &e) == SPMV_OK, "concurrent: the single save: %s", e.msg);
        CHECK(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "concurrent: the other writer's 200 saves");
        spmv_calibration_builtin(&c, 2, 8, 8, measured.isa);
        lost += !(spmv_calibration_load(q, &c, &e) == SPMV_OK && c.bw == 2e9);
        spmv_calibration_builtin(&c, 1, 8, 8, measured.isa);
        lost += !(spmv_calibration_load(q, &c, &e) == SPMV_OK && c.bw == 1.199e9);
        runs++;
    }
    CHECK(lost == 0, "concurrent writers: %d of %d runs lost a key", lost, runs);
    snprintf(lk, sizeof lk, "%s.lock", q);
    CHECK(exists(lk), "the lock file beside the calibration");
    remove(lk);
}

/* SPMV_ISA_AUTO per format: the calibrated picks of this machine's file, the built-in order
 * (the widest the CPU has) without them, $SPMV_ISA and an explicit ISA above both */
static spmv_isa dia_isa(const spmv_dl_csr *A, int hacked, spmv_isa req) {
    spmv_dl_dia D;
    spmv_dia_params q = hacked ? spmv_hdia_params_default() : spmv_dia_params_default();
    spmv_isa r;
    q.isa = req;
    if ((hacked ? spmv_dl_hdia_from_csr(&D, A, &q, NULL) : spmv_dl_dia_from_csr(&D, A, &q, NULL)) != SPMV_OK)
        return SPMV_ISA_AUTO;
    r = D.params.isa;
    spmv_dl_dia_free(&D);
    return r;
}
static spmv_isa any_isa(const spmv_dl_csr *A, spmv_format f) {
    spmv_dl_any M;
    spmv_opts o = spmv_opts_default();
    spmv_isa r;
    o.format = f;
    if (spmv_dl_any_from_csr(&M, A, &o, NULL) != SPMV_OK) return SPMV_ISA_AUTO;
    r = spmv_dl_any_isa(&M);
    spmv_dl_any_free(&M);
    return r;
}
/* a calibration file of this machine (or `machine`) whose ISA line names `picks` */
static const char *isa_file(const char *name, const char *machine, int index_bytes, const char *picks, char *p,
                            size_t n) {
    char here[128], text[1200];
    spmv_calibration_machine(here, sizeof here);
    snprintf(text, sizeof text, "%%%%spmv calibration 1\nisas machine %s | threads %d value 8 index %d picks %s\n",
             machine ? machine : here, spmv_max_threads(), index_bytes, picks);
    return put(name, text, p, n);
}
static void isa_cases(void) {
    spmv_triplets t;
    spmv_dl_csr A;
    spmv_isa wide = SPMV_ISA_GENERIC, got;
    const char *why = NULL;
    char p[600], all[1024];
    int f, w = 0;
    unsetenv("SPMV_ISA");
    (void)spmv_isa_resolve(SPMV_ISA_AUTO, &wide);
    if (wide == SPMV_ISA_GENERIC) {
        printf("skipped: ISA per format: this CPU and build have one ISA only (nothing to choose)\n");
        return;
    }
    memset(&t, 0, sizeof t);
    CHECK(spmv_gen("stencil3d:n=12", &t, NULL) == SPMV_OK, "gen");
    CHECK(spmv_dl_csr_from_triplets(&A, &t, NULL, NULL) == SPMV_OK, "csr");
    spmv_triplets_free(&t);
    setenv("SPMV_CALIBRATION", "off", 1);
    CHECK(dia_isa(&A, 0, SPMV_ISA_AUTO) == wide, "no calibration: dia takes the built-in order (%s)",
          spmv_isa_name(wide));
    isa_file("isa", NULL, 8, "dia=generic", p, sizeof p);
    setenv("SPMV_CALIBRATION", p, 1);
    got = dia_isa(&A, 0, SPMV_ISA_AUTO);
    CHECK(got == SPMV_ISA_GENERIC, "a file naming generic for dia: dia builds generic (got %s)", spmv_isa_name(got));
    CHECK(any_isa(&A, SPMV_FMT_DIA) == SPMV_ISA_GENERIC, "the same through the handle (any_from_csr)");
    CHECK(dia_isa(&A, 1, SPMV_ISA_AUTO) == wide, "hdia, not in the file: the built-in order");
    CHECK(any_isa(&A, SPMV_FMT_CSR) == wide, "csr, not in the file: the built-in order");
    CHECK(spmv_isa_for(SPMV_FMT_DIA, 8, 8, SPMV_ISA_AUTO, &got, &why) == SPMV_OK && got == SPMV_ISA_GENERIC && why &&
              !strcmp(why, "calibrated"), "spmv_isa_for names the calibration (%s)", why ? why : "-");
    CHECK(spmv_isa_for(SPMV_FMT_DIA, 8, 4, SPMV_ISA_AUTO, &got, NULL) == SPMV_OK && got == wide,
          "another index size: not this line's key, the built-in order");
    CHECK(dia_isa(&A, 0, wide) == wide, "an explicit ISA is kept over the calibration");
    setenv("SPMV_ISA", spmv_isa_name(wide), 1);
    CHECK(dia_isa(&A, 0, SPMV_ISA_AUTO) == wide, "$SPMV_ISA is kept over the calibration");
    unsetenv("SPMV_ISA");
    isa_file("isa", NULL, 8, "hdia=generic", p, sizeof p); /* replaced: read again */
    CHECK(dia_isa(&A, 0, SPMV_ISA_AUTO) == wide && dia_isa(&A, 1, SPMV_ISA_AUTO) == SPMV_ISA_GENERIC,
          "the file replaced: its new picks followed");
    isa_file("isa", NULL, 8, "csr=generic", p, sizeof p); /* csrdu follows csr's pick: csr's bits */
    CHECK(any_isa(&A, SPMV_FMT_CSRDU) == SPMV_ISA_GENERIC, "csr picked generic: csrdu builds generic (csr's arithmetic)");
    isa_file("isa", NULL, 8, "csrdu=generic", p, sizeof p);
    CHECK(any_isa(&A, SPMV_FMT_CSRDU) == wide, "a pick for csrdu itself: csr's (the built-in order) is kept");
    isa_file("isa", "Other, 1 CPUs, LLC 1 KiB", 8, "dia=generic", p, sizeof p);
    CHECK(dia_isa(&A, 0, SPMV_ISA_AUTO) == wide, "another machine's picks: the built-in order");
    put("isa", "%%spmv calibration 1\nisas machine x | threads 1 value 8 index 8 picks dia=sse9\n", p, sizeof p);
    CHECK(dia_isa(&A, 0, SPMV_ISA_AUTO) == wide, "a damaged line: the built-in order");
    { /* an optional tag's picks under its own value key: c's 8-byte values are not d's */
        char here[128], text[600];
        spmv_calibration_machine(here, sizeof here);
        snprintf(text, sizeof text, "%%%%spmv calibration 1\nisas machine %s | threads %d value c index 8 picks dia=generic\n",
                 here, spmv_max_threads());
        put("isa", text, p, sizeof p);
        CHECK(spmv_isa_for(SPMV_FMT_DIA, SPMV_VKEY_C, 8, SPMV_ISA_AUTO, &got, &why) == SPMV_OK &&
                  got == SPMV_ISA_GENERIC && why && !strcmp(why, "calibrated"),
              "a 'value c' line: c's dia follows it (got %s)", spmv_isa_name(got));
        CHECK(dia_isa(&A, 0, SPMV_ISA_AUTO) == wide, "a 'value c' line: d's dia (8-byte values too) does not");
        CHECK(spmv_isa_for(SPMV_FMT_DIA, SPMV_VKEY_Z, 8, SPMV_ISA_AUTO, &got, NULL) == SPMV_OK && got == wide,
              "a 'value c' line: z's dia does not");
        snprintf(text, sizeof text, "%%%%spmv calibration 1\nisas machine %s | threads %d value 16 index 8 picks dia=generic\n",
                 here, spmv_max_threads());
        put("isa", text, p, sizeof p);
        CHECK(spmv_isa_for(SPMV_FMT_DIA, SPMV_VKEY_Z, 8, SPMV_ISA_AUTO, &got, NULL) == SPMV_OK && got == wide,
              "'value 16' is no key (z's is 'value z'): the built-in order");
    }
    /* every host format generic: the selection's trials and its winner follow the file */
    for (f = 0; f < SPMV_FMT_COUNT_; f++)
        if (spmv_format_flags((spmv_format)f) & SPMV_FF_HOST)
            w += snprintf(all + w, sizeof all - (size_t)w, "%s%s=generic", w ? " " : "",
                          spmv_format_name((spmv_format)f));
    isa_file("isa", NULL, 8, all, p, sizeof p);
    {
        spmv_dl_auto M;
        spmv_opts o = spmv_opts_default();
        spmv_error e;
        o.expected_calls = 100000;
        CHECK(spmv_dl_auto_from_csr(&M, &A, &o, &e) == SPMV_OK, "selection: %s", e.msg);
        CHECK(spmv_dl_any_isa(&M.h) == SPMV_ISA_GENERIC, "the selection's %s builds generic as the file says (got %s)",
              spmv_format_name(M.h.fmt), spmv_isa_name(spmv_dl_any_isa(&M.h)));
        spmv_dl_auto_free(&M);
    }
    setenv("SPMV_CALIBRATION", "off", 1);
    remove(p);
    spmv_dl_csr_free(&A);
}
/* a measurement of one format's ISAs, saved beside a CSR calibration and loaded back */
static void isa_measure_cases(void) {
    spmv_isa_table t, u;
    spmv_calibration c;
    spmv_error e;
    unsigned char want[SPMV_FMT_COUNT_] = {0};
    char p[600];
    int i, timed = 0;
    want[SPMV_FMT_DIA] = 1;
    CHECK(spmv_dl_calibrate_isa(&t, 0, want, &e) == SPMV_OK, "calibrate_isa: %s", e.msg);
    for (i = 1; i < SPMV_ISA_COUNT_; i++)
        if (spmv_isa_supported((spmv_isa)i))
            timed += t.secs[SPMV_FMT_DIA][i][0] > 0 && t.secs[SPMV_FMT_DIA][i][1] > t.secs[SPMV_FMT_DIA][i][0];
    CHECK(t.pick[SPMV_FMT_DIA] != SPMV_ISA_AUTO && spmv_isa_supported(t.pick[SPMV_FMT_DIA]) &&
              t.pick[SPMV_FMT_CSR] == SPMV_ISA_AUTO && t.value_bytes == 8 && t.index_bytes == 8,
          "calibrate_isa: dia picked (%s), nothing else", spmv_isa_name(t.pick[SPMV_FMT_DIA]));
    CHECK(timed >= 2, "calibrate_isa: every ISA here timed, in cache faster than beyond (%d)", timed);
    snprintf(p, sizeof p, "%s/isas", dir);
    CHECK(spmv_calibration_save(p, &measured, 0, &e) == SPMV_OK, "save the CSR line: %s", e.msg);
    CHECK(spmv_isa_table_save(p, &t, 0, &e) == SPMV_OK, "save the picks: %s", e.msg);
    spmv_calibration_builtin(&c, measured.threads, 8, 8, measured.isa);
    CHECK(spmv_calibration_load(p, &c, &e) == SPMV_OK && c.measured, "the CSR line loads beside the picks: %s", e.msg);
    memset(&u, 0, sizeof u);
    u.threads = t.threads, u.value_bytes = 8, u.index_bytes = 8;
    CHECK(spmv_isa_table_load(p, &u, &e) == SPMV_OK && u.pick[SPMV_FMT_DIA] == t.pick[SPMV_FMT_DIA] &&
              u.pick[SPMV_FMT_CSR] == SPMV_ISA_AUTO, "the picks load back: %s", e.msg);
    CHECK(spmv_calibration_save(p, &measured, 0, &e) == SPMV_OK, "a CSR save again: %s", e.msg);
    memset(&u, 0, sizeof u);
    u.threads = t.threads, u.value_bytes = 8, u.index_bytes = 8;
    CHECK(spmv_isa_table_load(p, &u, &e) == SPMV_OK && u.pick[SPMV_FMT_DIA] == t.pick[SPMV_FMT_DIA],
          "a CSR save keeps the picks: %s", e.msg);
    u.index_bytes = 4;
    CHECK(spmv_isa_table_load(p, &u, &e) == SPMV_ERR_ARG, "no picks for another key: SPMV_ERR_ARG");
    /* the same picks under z's key: a line of their own ("value z"), beside d's */
    t.value_bytes = SPMV_VKEY_Z;
    CHECK(spmv_isa_table_save(p, &t, 0, &e) == SPMV_OK, "save under z's key: %s", e.msg);
    CHECK(file_has(p, " value z index 8 picks "), "z's line names its key 'value z'");
    memset(&u, 0, sizeof u);
    u.threads = t.threads, u.value_bytes = SPMV_VKEY_Z, u.index_bytes = 8;
    CHECK(spmv_isa_table_load(p, &u, &e) == SPMV_OK && u.pick[SPMV_FMT_DIA] == t.pick[SPMV_FMT_DIA],
          "z's picks load back: %s", e.msg);
    u.value_bytes = 8;
    CHECK(spmv_isa_table_load(p, &u, &e) == SPMV_OK && u.pick[SPMV_FMT_DIA] == t.pick[SPMV_FMT_DIA],
          "d's line kept beside z's: %s", e.msg);
    u.value_bytes = SPMV_VKEY_C;
    CHECK(spmv_isa_table_load(p, &u, &e) == SPMV_ERR_ARG && strstr(e.msg, "value c"),
          "no picks for c: SPMV_ERR_ARG naming the key (%s)", e.msg);
    t.value_bytes = 16;
    CHECK(spmv_isa_table_save(p, &t, 0, &e) == SPMV_ERR_ARG, "a value key that is none: SPMV_ERR_ARG");
}

int main(void) {
    char p[700];
    if (!mkdtemp(dir)) {
        printf("cannot make a temporary directory\n");
        return 1;
    }
    file_cases();
    selection_cases();
    owner_cases();
    concurrent_cases();
    isa_cases();
    isa_measure_cases();
    {
        static const char *const names[] = {"cal", "bad", "foreign", "home/.cache/spmv/calibration",
                                            "home/.cache/spmv", "home/.cache", "home", "notes", "empty", "link",
                                            "fifo", "many", "conc", "isa", "isas"};
        int i;
        for (i = 0; i < (int)(sizeof names / sizeof *names); i++) { /* each, and the lock beside it */
            snprintf(p, sizeof p, "%s/%s.lock", dir, names[i]);
            remove(p);
            snprintf(p, sizeof p, "%s/%s", dir, names[i]);
            if (remove(p) != 0) rmdir(p);
        }
        rmdir(dir);
        CHECK(!exists(dir), "nothing left behind in %s", dir);
    }
    return check_finish("test_calib");
}
