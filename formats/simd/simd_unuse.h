/* Undoes formats/simd/simd_use.h, so that it can be included again (another ISA, width,
 * value or index type) in the same translation unit. The includer's parameters
 * (SPMV_VAL, SPMV_IDX, SPMV_ISA_TOK, SPMV_GW) are left alone. */
#undef SPMV__U_ACTIVE
#undef SPMV__UVK
#undef SPMV__UIK
#undef SPMV__UGW
#undef SPMV__UKEY
#undef SPMV__UB
#undef SPMV_W
#undef SPMV_ISA_SUFFIX
#undef SPMV_ISA_ENUM
#undef SPMV_KTARGET
#undef SPMV_ISA_COMPILED
#undef spmv_v
#undef V_zero
#undef V_set1
#undef V_loadu
#undef V_storeu
#undef V_mload
#undef V_mstore
#undef V_add
#undef V_mul
#undef V_fma
#undef V_hsum
#undef V_scan
#undef V_mask_first
#undef V_lane
#undef V_blend
#undef V_shift_up
#undef V_gather_i32
#undef V_gather_i64
#undef V_mgather_i32
#undef V_mgather_i64
#undef V_gather
#undef V_mgather
