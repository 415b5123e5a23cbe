# install.cmake - `cmake --install build --prefix P` and `cpack -G DEB`
# (README.md, "Installing").  The layout, which base/paths.c finds relative
# to the installed binary (/proc/self/exe):
#   P/bin/flagscope
#   P/share/flagscope/workloads/NAME/   the bundled recipes and their sources
#   P/share/flagscope/presets/          the preset studies
#   P/share/flagscope/remote-helper/    the board helper's C source (built per board)
#   P/share/flagscope/scripts/deb-src.sh  adds deb-src entries (apt-get source needs them)
#   P/lib/flagscope/libinsncount.so     the QEMU instruction-count plugin
#   P/share/man/man1/flagscope.1.gz     the man page (help2man from --help)
#   P/share/doc/flagscope/              README.md and doc/*.md (recipe-format.md: the recipe format)
# Architecture-independent data goes to share/, the plugin (an ELF object
# loaded by qemu) to lib/flagscope, as the FHS says for a program's private
# objects.

set(FLAGSCOPE_VERSION 0.1.0)
set(FLAGSCOPE_INSTALL_DATADIR share/flagscope)
set(FLAGSCOPE_INSTALL_LIBDIR lib/flagscope)
# base/paths.c: the folders relative to the binary's own
file(RELATIVE_PATH FLAGSCOPE_REL_DATADIR /p/bin /p/${FLAGSCOPE_INSTALL_DATADIR})
file(RELATIVE_PATH FLAGSCOPE_REL_LIBDIR /p/bin /p/${FLAGSCOPE_INSTALL_LIBDIR})
target_compile_definitions(flagscope_base PRIVATE
  FLAGSCOPE_REL_DATADIR="${FLAGSCOPE_REL_DATADIR}"
  FLAGSCOPE_REL_LIBDIR="${FLAGSCOPE_REL_LIBDIR}")

# flagscope --version (and the package's and man page's version)
target_compile_definitions(flagscope PRIVATE FLAGSCOPE_VERSION="${FLAGSCOPE_VERSION}")

install(TARGETS flagscope RUNTIME DESTINATION bin)

# Every workloads/NAME/ with a recipe.ini (not workloads/*.c, the loader's
# own code); scripts keep their modes.
file(GLOB FLAGSCOPE_RECIPES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/workloads/*/recipe.ini)
foreach(ini ${FLAGSCOPE_RECIPES})
  get_filename_component(dir ${ini} DIRECTORY)
  install(DIRECTORY ${dir} DESTINATION ${FLAGSCOPE_INSTALL_DATADIR}/workloads
    USE_SOURCE_PERMISSIONS)
endforeach()
install(DIRECTORY ${CMAKE_SOURCE_DIR}/flagsets/presets/
  DESTINATION ${FLAGSCOPE_INSTALL_DATADIR}/presets FILES_MATCHING PATTERN "*.study")
install(PROGRAMS ${CMAKE_SOURCE_DIR}/scripts/deb-src.sh
  DESTINATION ${FLAGSCOPE_INSTALL_DATADIR}/scripts)
install(FILES ${CMAKE_SOURCE_DIR}/harness/remote-helper/helper.c
  DESTINATION ${FLAGSCOPE_INSTALL_DATADIR}/remote-helper)
if(TARGET insncount)
  install(TARGETS insncount LIBRARY DESTINATION ${FLAGSCOPE_INSTALL_LIBDIR})
endif()
install(FILES ${CMAKE_SOURCE_DIR}/README.md DESTINATION share/doc/flagscope)
file(GLOB FLAGSCOPE_DOC_PAGES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/doc/*.md)
install(FILES ${FLAGSCOPE_DOC_PAGES} DESTINATION share/doc/flagscope)

# The man page: help2man over `flagscope --help` and each command's --help.
find_program(HELP2MAN help2man)
if(HELP2MAN)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/flagscope.1
    COMMAND sh ${CMAKE_SOURCE_DIR}/scripts/manpage.sh $<TARGET_FILE:flagscope>
      ${FLAGSCOPE_VERSION} ${CMAKE_SOURCE_DIR}/doc/flagscope.h2m ${CMAKE_BINARY_DIR}/flagscope.1
    DEPENDS flagscope ${CMAKE_SOURCE_DIR}/scripts/manpage.sh ${CMAKE_SOURCE_DIR}/doc/flagscope.h2m
    COMMENT "man page flagscope.1 (help2man)")
  # installed compressed, as Debian policy (12.3) wants man pages; -n: no
  # name or time stamp in the file, so the package is reproducible
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/flagscope.1.gz
    COMMAND gzip -9nc ${CMAKE_BINARY_DIR}/flagscope.1 > ${CMAKE_BINARY_DIR}/flagscope.1.gz
    DEPENDS ${CMAKE_BINARY_DIR}/flagscope.1)
  add_custom_target(manpage ALL DEPENDS ${CMAKE_BINARY_DIR}/flagscope.1.gz)
  install(FILES ${CMAKE_BINARY_DIR}/flagscope.1.gz DESTINATION share/man/man1)
else()
  message(WARNING "help2man not found: no man page (apt-get install help2man; scripts/packages.txt)")
endif()

# The Debian package: cpack -G DEB in the build folder (scripts/deb.sh).
# Depends, Recommends and Suggests come from the [Depends], [Recommends]
# and [Suggests] tags in scripts/packages.txt; the shared libraries'
# packages from dpkg-shlibdeps.
file(STRINGS ${CMAKE_SOURCE_DIR}/scripts/packages.txt FLAGSCOPE_PKG_LINES)
foreach(kind Depends Recommends Suggests)
  set(FLAGSCOPE_DEB_${kind})
  foreach(line ${FLAGSCOPE_PKG_LINES})
    if(line MATCHES "^([a-z0-9][a-z0-9.+-]*)[ \t]*#.*\\[${kind}\\]")
      list(APPEND FLAGSCOPE_DEB_${kind} ${CMAKE_MATCH_1})
    endif()
  endforeach()
  string(REPLACE ";" ", " FLAGSCOPE_DEB_${kind} "${FLAGSCOPE_DEB_${kind}}")
endforeach()
set(CPACK_PACKAGE_NAME flagscope)
set(CPACK_PACKAGE_VERSION ${FLAGSCOPE_VERSION})
set(CPACK_PACKAGE_CONTACT "flagscope developers <flagscope@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
  "rank compiler flag, libc and linkage configurations on real workloads")
set(CPACK_PACKAGE_DESCRIPTION
  "flagscope rebuilds workloads from source across a matrix of compiler
configurations, proves from each binary that it got its flags, runs and
validates every build, and ranks the configurations with confidence
intervals.")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "${FLAGSCOPE_DEB_Depends}")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "${FLAGSCOPE_DEB_Recommends}")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "${FLAGSCOPE_DEB_Suggests}")
# only what install() names: no tests, no headers
set(CPACK_DEB_COMPONENT_INSTALL OFF)
include(CPack)
