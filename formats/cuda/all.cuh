/* The list of CUDA formats; included once per (tag, value, index) by
 * formats/cuda/instance.cuh. No include guard. A new format adds one line
 * (any.cuh, the run-time dispatch over all of them, comes last). */
#include "csr.cuh"
#include "coo.cuh"
#include "axt.cuh"
#include "any.cuh"
