/* Empty stand-in: Clang 19's CUDA wrapper headers include this file, which
 * CUDA 13 no longer ships. gpuss-translate adds this folder with -idirafter,
 * so a real header of the same name wins. */
