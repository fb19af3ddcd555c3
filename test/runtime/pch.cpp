// The translation unit that builds test/runtime's precompiled header (CMakeLists.txt).
