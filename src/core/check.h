// CHECK for programmer errors: aborts with file:line. Never for input a user controls.
#pragma once

#include <cstdio>
#include <cstdlib>

#define DFB_CHECK(cond)                                                             \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      std::fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
      std::abort();                                                                 \
    }                                                                               \
  } while (0)
