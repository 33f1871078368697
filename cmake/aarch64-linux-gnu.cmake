# Cross-compiling for Linux aarch64 with Debian's cross compiler (g++-aarch64-linux-gnu), as
# scripts/build-arm64.sh does for the client build.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
# The client build uses header-only libraries (fmt, CLI11, nlohmann_json, tl-expected): the build
# machine's packages serve any target. fmt installs its CMake package under its multiarch path.
execute_process(COMMAND uname -m OUTPUT_VARIABLE _dfbench_build_arch
                OUTPUT_STRIP_TRAILING_WHITESPACE)
set(fmt_DIR /usr/lib/${_dfbench_build_arch}-linux-gnu/cmake/fmt CACHE PATH "fmt's CMake package")
