/* The list of formats; included once per part by instance.h. No include guard. */
#include "coo.h"
#include "csr.h"
#include "axt.h"
#include "csr5.h"
#include "any.h"
