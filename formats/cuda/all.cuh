/* The list of CUDA formats; included once per (tag, value, index) by
 * formats/cuda/instance.cuh. No include guard. A new format adds one line. */
#include "csr.cuh"
