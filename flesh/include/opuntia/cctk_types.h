/* The Cactus scalar types that kernel bodies and bindings use. Plain C so that OpenCL C,
   CUDA and C++ all read the same definitions. CCTK_REAL follows the build's precision. */
#ifndef OPUNTIA_CCTK_TYPES_H
#define OPUNTIA_CCTK_TYPES_H

#if defined(OPUNTIA_REAL_IS_FLOAT)
typedef float CCTK_REAL;
#else
typedef double CCTK_REAL;
#endif
typedef int CCTK_INT;

#endif
