/* The list of formats; included once per part by instance.h. No include guard.
 * Formats under construction are behind SPMV_EXPERIMENTAL_<NAME> until their tests pass. */
#include "coo.h"
#include "csr.h"
#if defined(SPMV_EXPERIMENTAL_AXT)
#include "axt.h"
#endif
#if defined(SPMV_EXPERIMENTAL_CSR5)
#include "csr5.h"
#endif
#include "any.h"
