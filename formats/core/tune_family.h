/* A family's parameter search, generated: spmv__tune_search's callbacks (convert with a
 * candidate, run, keep, drop) and the search around them, once for every family that tunes.
 * Template header, included in a family's SPMV_PART_API after its _mv and _free, with
 *   #define SPMV_TF_FAM    dia                       the object spmv_<tag>_dia, _mv, _free
 *   #define SPMV_TF_PARAMS spmv_dia_params           its parameter struct (with isa, ...)
 *   #define SPMV_TF_SET(p, key, v)  ((p).hs = (v))   candidate value v into p (key: the
 *                                                    field, for families tuning several)
 *   #define SPMV_TF_CONVERT(M, A, p) SPMV_NAME(dia__from_csr)(M, A, p)   p: a value
 * and defines
 *   spmv_status SPMV_NAME(<fam>__tune_search)(A, base, best, cand, ncand, key,
 *                                            first_limit_fails, seconds_spent)
 * which times products of A converted with base and each cand[i] (spmv__tune_search: the
 * first keeps its place unless another is 5% faster; SPMV_ERR_LIMIT skips a candidate) and
 * puts the winner's resolved parameters in *best. The parameters are #undef'd at the end. */
#define SPMV__TF(x) SPMV_NAME(SPMV_CAT(SPMV_TF_FAM, x))

typedef struct SPMV__TF(__tune_ctx) {
    const SPMV_NAME(csr) * A;
    SPMV_TF_PARAMS base, *best;
    const int *cand;
    int key;
    SPMV_NAME(SPMV_TF_FAM) M;
    SPMV_Y *x, *y;
} SPMV__TF(__tune_ctx);
static inline spmv_status SPMV__TF(__tune_build)(void *c, int i) {
    SPMV__TF(__tune_ctx) *t = (SPMV__TF(__tune_ctx) *)c;
    SPMV_TF_PARAMS p = t->base;
    SPMV_TF_SET(p, t->key, t->cand[i]);
    return SPMV_TF_CONVERT(&t->M, t->A, p);
}
static inline void SPMV__TF(__tune_run)(void *c) {
    SPMV__TF(__tune_ctx) *t = (SPMV__TF(__tune_ctx) *)c;
    SPMV__TF(_mv)(&t->M, (SPMV_Y)1, t->x, (SPMV_Y)0, t->y);
}
static inline void SPMV__TF(__tune_keep)(void *c) {
    SPMV__TF(__tune_ctx) *t = (SPMV__TF(__tune_ctx) *)c;
    *t->best = t->M.params;
}
static inline void SPMV__TF(__tune_drop)(void *c) { SPMV__TF(_free)(&((SPMV__TF(__tune_ctx) *)c)->M); }

static inline spmv_status SPMV__TF(__tune_search)(const SPMV_NAME(csr) *A, SPMV_TF_PARAMS base, SPMV_TF_PARAMS *best,
                                                  const int *cand, int ncand, int key, int first_limit_fails,
                                                  double *seconds_spent) {
    const double t_start = spmv_wtime();
    SPMV__TF(__tune_ctx) t;
    spmv_status st;
    t.A = A, t.base = base, t.best = best, t.cand = cand, t.key = key;
    st = SPMV_NAME(tune__xy)(A, &t.x, &t.y);
    if (st != SPMV_OK) return st;
    st = spmv__tune_search(A->nnz > 0 ? ncand : 1, first_limit_fails, SPMV__TF(__tune_build), SPMV__TF(__tune_run),
                           SPMV__TF(__tune_keep), SPMV__TF(__tune_drop), &t);
    spmv__free(t.x);
    spmv__free(t.y);
    if (seconds_spent) *seconds_spent = spmv_wtime() - t_start;
    return st;
}

#undef SPMV__TF
#undef SPMV_TF_FAM
#undef SPMV_TF_PARAMS
#undef SPMV_TF_SET
#undef SPMV_TF_CONVERT
