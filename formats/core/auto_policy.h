/* auto_policy — every constant the automatic selection (formats/auto.h) decides with, in one
 * struct (as CUB keeps its tuning in policy structs). The measurement behind each number, and
 * its history, are in docs/PERFORMANCE.md, "The selection's policy". SPMV_AUTO_RISK and
 * SPMV_AUTO_LOOK may be defined before including spmv.h to change the two shares. */
#ifndef SPMV_CORE_AUTO_POLICY_H
#define SPMV_CORE_AUTO_POLICY_H
#ifndef SPMV_AUTO_RISK
#define SPMV_AUTO_RISK 0.02
#endif
#ifndef SPMV_AUTO_LOOK
#define SPMV_AUTO_LOOK 0.1
#endif
/* most samples of a duel (an array bound, so a macro; the policy's duel_max is this) */
#define SPMV_AUTO_DUEL_MAX 48

typedef struct spmv_auto_policy {
    /* what looking (inspection, trials, losers' conversions, the duel) may cost: the larger of
     * risk of the expected products at CSR's time (if every candidate loses, the user paid that
     * over plain CSR) and look of the best saving the rules predict (at spread times the
     * prediction, its conversion paid), never more than opts.budget products */
    double risk, look;
    double spread;          /* the rules' predictions are this far off either way */
    double trial_products;  /* products a trial costs beyond its conversion (warm-ups, samples) */
    double slow;            /* the slowest machine against the built-in calibration's floor */
    double read_cost;       /* seconds reading the calibration file costs: below it, not read */
    double look_fixed;      /* seconds of a first inspection and trial's fixed costs */
    double cal_cost;        /* seconds a calibration may take when run by a selection (cached) */
    double optimistic;      /* a candidate's conversion is repaid if it ran this much faster */
    double pred_slack;      /* CSR on a real matrix against the calibration's floor */
    double invest;          /* predicted to save this many times its conversion and trial: tried
                               beyond what looking may cost while CSR leads, then dueled */
    double confident;       /* host: the untimed choice takes predictions of at least this */
    double warm_copy;       /* CSR's copy onto a loser's touched pages, in CSR products */
    double donor_fill;      /* a slice layout with at most this many slots per entry takes it */
    double duel_margin;     /* the duel's winner must beat CSR by this fraction */
    int duel_max;           /* most samples of each side of the duel (SPMV_AUTO_DUEL_MAX) */
} spmv_auto_policy;

static const spmv_auto_policy spmv_auto__policy = {
    SPMV_AUTO_RISK, SPMV_AUTO_LOOK, /* risk, look */
    1.25,                           /* spread */
    6,                              /* trial_products */
    4.0,                            /* slow */
    20e-6,                          /* read_cost */
    50e-6,                          /* look_fixed */
    0.3,                            /* cal_cost */
    2.0,                            /* optimistic */
    2.0,                            /* pred_slack */
    4.0,                            /* invest */
    1.2,                            /* confident */
    1.5,                            /* warm_copy */
    1.5,                            /* donor_fill */
    0.02,                           /* duel_margin */
    SPMV_AUTO_DUEL_MAX              /* duel_max */
};
#endif
