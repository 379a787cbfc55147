/* Intentionally empty: formats/registry.h includes it in place of a format header when only the rows are wanted. */
