/* The list of formats; included once per part by instance.h. No include guard. */
#include "coo.h"
#include "csr.h"
#include "any.h"
