# crown - one non-recursive Makefile.
#   make                 release build of build/release/crown
#   make BUILD=debug     -O0 -g3, assertions on, is_ok checked after every make/unmake
#   make BUILD=asan      AddressSanitizer + UndefinedBehaviorSanitizer, with clang
#                        (build/asan-clang) unless CC is given (CC=gcc: build/asan)
#   make BUILD=tsan      ThreadSanitizer (for the web server's threads)
#   make fuzz            builds the libFuzzer targets (clang, BUILD=fuzz) and runs each
#                        for FUZZ_SECONDS (default 30) from its seed corpus
#   make CC=clang ...    any of the above with clang
#   make test            installs test dependencies if missing, then runs every test in
#                        the release (gcc) and sanitizer (clang) builds, then the
#                        web API tests (sanitizer build) and browser tests (release),
#                        the search and contract tests in the debug build, the web API
#                        tests under ThreadSanitizer, and each fuzz target briefly
#                        (make fuzz-smoke: linked with the sanitizer build's objects)
#   make web-check       the web tests of one build (WEB_TESTS="api e2e cluster" by default)
#   make play            installs build dependencies (and the review graph's library)
#                        if missing, builds, plays the AI
#   make bench           the benchmark script (slow; not part of the tests)
#   make python          the Python module (docs/PYTHON.md); make python-check its tests;
#                        make bench-python its speed against the C API
#   make install         crown, libcrown.a/.so, crown.h, crown.pc, the manual pages, the
#                        bash completion and the Python module (with python3-dev) under
#                        PREFIX (default /usr/local), staged under DESTDIR if set;
#                        make uninstall removes them
#   make deb             Debian packages (debian/) into build/deb, checked by lintian;
#                        make deb-test installs them into a fresh Debian root and uses them

BUILD ?= release
WERROR ?= 1

# The compiler: gcc, but clang for the sanitizer build (so that make test compiles
# everything once with each compiler: the release build with gcc, the sanitizer build
# with clang) and the fuzz build (libFuzzer comes with clang only). CC=... picks another.
# A clang build's folder says so: build/release-clang, build/asan-clang.
ifeq ($(origin CC),default)
  CC := $(if $(filter asan,$(BUILD)),clang,gcc)
else ifeq ($(CC),cc)
  CC := gcc
endif
ifeq ($(BUILD),fuzz)
  CC := clang
  OUT ?= build/fuzz
endif

OUT ?= build/$(BUILD)$(if $(findstring clang,$(notdir $(CC))),-clang,)

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes \
        -Wmissing-declarations -Wold-style-definition -Wpointer-arith -Wcast-align \
        -Wwrite-strings -Wundef -Wvla -Wformat=2 -Wimplicit-fallthrough \
        -Wdouble-promotion -Wconversion -Wno-sign-conversion
ifeq ($(WERROR),1)
  WARN += -Werror
endif

BASE := -std=c17 -D_POSIX_C_SOURCE=200809L -pthread -ffp-contract=off -Isrc -Iinclude -MMD -MP
ifeq ($(BUILD),release)
  OPT := -O3 -DNDEBUG
else ifeq ($(BUILD),debug)
  OPT := -O0 -g3 -DCROWN_CHECK_INVARIANTS
else ifeq ($(BUILD),asan)
  OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(BUILD),tsan)
  OPT := -O1 -g -fsanitize=thread -fno-omit-frame-pointer
else ifeq ($(BUILD),fuzz)
  OPT := -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all \
         -fno-omit-frame-pointer
else
  $(error BUILD must be release, debug, asan, tsan or fuzz)
endif
# x86-64-v2 (2009 on) has POPCNT, which the bitboard code leans on.
ifeq ($(shell uname -m),x86_64)
  OPT += -march=x86-64-v2
endif
ifeq ($(NATIVE),1)
  OPT += -march=native
endif

CFLAGS_ALL := $(BASE) $(OPT) $(WARN) $(CFLAGS)
LDFLAGS_ALL := $(OPT) -pthread $(LDFLAGS)
# The solver's packed tables (src/solve/kvs_pack*.c) are zstd blocks: libzstd, linked
# wherever the engine is.
ZSTD_LIBS := $(shell pkg-config --libs libzstd 2>/dev/null || echo -lzstd)
LDLIBS_ALL := -lm $(ZSTD_LIBS) $(LDLIBS)

LIB_SRC := $(wildcard src/core/*.c src/games/*/*.c src/search/*.c src/solve/*.c src/play/*.c src/api/*.c)
CLI_SRC := $(wildcard src/cli/*.c)
# The lab (crown lab): self-play studies, between play and the CLI; it writes JSON with
# jansson and CSV with libcsv, so it is linked with the program and the tests only.
LAB_SRC := $(wildcard src/lab/*.c)
LAB_LIBS := -ljansson -lcsv
# The web server (crown serve) and its front end, compiled into the program by
# tools/embed-assets.sh; the directories are prerequisites too, so that a removed file
# regenerates the table.
WEB_SRC := $(wildcard src/web/*.c)
WEB_STATIC := $(shell find src/web/static -type f 2>/dev/null) $(shell find src/web/static -type d 2>/dev/null)
WEB_GEN := $(OUT)/gen/web_assets_data.c
# Passkeys (src/web/webauthn.c): libfido2 checks the signatures, libcbor reads the CBOR.
FIDO_LIBS := $(shell pkg-config --libs libfido2 libcbor 2>/dev/null || echo -lfido2 -lcbor)
WEB_LIBS := -lmicrohttpd -lsqlite3 -ljansson -lpq -lsodium -lcurl $(FIDO_LIBS)
# libpq's header lives in its own folder (Debian's libpq-dev); a system header, so that
# the strict warnings stay on our code.
PQ_CFLAGS := $(patsubst -I%,-isystem %,$(shell pkg-config --cflags libpq 2>/dev/null || echo -I/usr/include/postgresql))
WEB_TESTS ?= api e2e cluster
TEST_SUPPORT_SRC := $(wildcard tests/support/*.c)
TEST_SRC := $(wildcard tests/test_*.c)

# libFuzzer targets: tests/fuzz/fuzz_*.c, each with the shared helpers (fuzz_support.c).
FUZZ_SUPPORT_SRC := tests/fuzz/fuzz_support.c
FUZZ_SRC := $(filter-out $(FUZZ_SUPPORT_SRC),$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_SECONDS ?= 30
# Seconds per fuzz target in make test: six targets, one minute of CPU in all, a check
# that each still runs clean from its corpus (the searching runs are `make fuzz
# FUZZ_SECONDS=300`).
FUZZ_TEST_SECONDS ?= 10

# The evaluation networks (nets/GAME.nnue), compiled into the library by
# tools/embed-nets.sh with their records' "default nnue" lines (nets/GAME.txt); the folder
# is a prerequisite too, so that a removed net regenerates.
NETS := $(wildcard nets/*.nnue) $(wildcard nets/*.txt) $(wildcard nets)
NETS_GEN := $(OUT)/gen/nnue_nets_data.c
LIB_OBJ := $(LIB_SRC:%.c=$(OUT)/obj/%.o) $(OUT)/obj/gen/nnue_nets_data.o
CLI_OBJ := $(CLI_SRC:%.c=$(OUT)/obj/%.o) $(LAB_SRC:%.c=$(OUT)/obj/%.o)
# Tests link the CLI's modules but the program's entry and its command table (which
# names the web server's entry point).
CLI_MODULE_OBJ := $(filter-out %/main.o %/commands.o %/cmd_help.o,$(CLI_OBJ))
WEB_OBJ := $(WEB_SRC:%.c=$(OUT)/obj/%.o) $(OUT)/obj/gen/web_assets_data.o
TEST_SUPPORT_OBJ := $(TEST_SUPPORT_SRC:%.c=$(OUT)/obj/%.o)
TEST_BIN := $(TEST_SRC:tests/%.c=$(OUT)/tests/%)
FUZZ_SUPPORT_OBJ := $(FUZZ_SUPPORT_SRC:%.c=$(OUT)/obj/%.o)
FUZZ_BIN := $(FUZZ_SRC:tests/fuzz/%.c=$(OUT)/fuzz/%)

LIB := $(OUT)/libcrown.a
# The program, the tests and the fuzz targets link the library's objects with all their
# symbols (they call the engine directly); libcrown.a, for embedders, shows only crown_*.
ENGINE_LIB := $(OUT)/obj/libengine.a
OBJCOPY ?= objcopy
CROWN := $(OUT)/crown

# The shared library: in the release build the same sources compiled again
# position-independent into their own object directory (so the static library and the
# program keep their faster code); in the others, which are for testing, the static
# library is made of those same objects, so the library is compiled once. Only the
# crown_* functions of include/crown.h are exported. Its version is crown.h's.
VERSION := $(shell sed -n 's/^\#define CROWN_VERSION "\(.*\)"/\1/p' include/crown.h)
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))
SONAME := libcrown.so.$(SOMAJOR)
SHLIB := $(OUT)/libcrown.so.$(VERSION)
PIC_FLAGS := -fPIC -fvisibility=hidden
PIC_OBJ := $(LIB_SRC:%.c=$(OUT)/pic/%.o) $(OUT)/pic/gen/nnue_nets_data.o
ifneq ($(BUILD),release)
  LIB_OBJ := $(PIC_OBJ)
endif

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR := $(DESTDIR)$(PREFIX)/bin
# LIBSUBDIR: the libraries' folder under PREFIX (Debian's packages: lib/MULTIARCH).
LIBSUBDIR ?= lib
LIBDIR := $(DESTDIR)$(PREFIX)/$(LIBSUBDIR)
INCDIR := $(DESTDIR)$(PREFIX)/include
PCDIR := $(LIBDIR)/pkgconfig
MANDIR := $(DESTDIR)$(PREFIX)/share/man/man1
COMPLETIONDIR := $(DESTDIR)$(PREFIX)/share/bash-completion/completions
# The commands that get a manual page crown-COMMAND(1), written by crown itself from the
# text of its --help (src/cli/commands.c), so that the two never disagree.
MAN_COMMANDS = $$($(CROWN) completion words 1 crown "" | grep -v '^-')

.PHONY: all tests check test play bench deps deps-test clean lint web-check \
        install uninstall fuzz fuzz-smoke fuzz-targets check-invariants python python-check python-sources \
        bench-python deb deb-test
all: $(CROWN) $(LIB) $(SHLIB)

$(patsubst %.c,$(OUT)/obj/%.o,$(wildcard src/web/store_pg*.c)): CFLAGS_ALL += $(PQ_CFLAGS)
# In the clang sanitizer build the fuzz targets' own files carry libFuzzer's coverage
# (make fuzz-smoke), which it needs to run at all; the library's objects do not.
ifeq ($(BUILD)$(findstring clang,$(notdir $(CC))),asanclang)
$(OUT)/obj/tests/fuzz/%.o: CFLAGS_ALL += -fsanitize=fuzzer-no-link
endif
$(OUT)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(ENGINE_LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@rm -f $@
	@ar rcs $@ $^

# libcrown.a is one relocatable object of the library whose every global but crown_* is
# made local, as libcrown.so exports only those: a program that embeds it may name its
# own functions game_create or rng_below without a clash.
$(LIB): $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  AR      $@"
	@rm -f $@
	@$(LD) -r -o $(OUT)/obj/libcrown-all.o $^
	@$(OBJCOPY) -w --keep-global-symbol='crown_*' $(OUT)/obj/libcrown-all.o $(OUT)/obj/libcrown.o
	@rm -f $(OUT)/obj/libcrown-all.o
	@ar rcs $@ $(OUT)/obj/libcrown.o

$(OUT)/pic/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC PIC  $<"
	@$(CC) $(CFLAGS_ALL) $(PIC_FLAGS) -c $< -o $@

$(SHLIB): $(PIC_OBJ)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS_ALL) -shared -Wl,-soname,$(SONAME) -o $@ $^ $(LDLIBS_ALL)
	@ln -sf $(notdir $@) $(OUT)/$(SONAME)
	@ln -sf $(notdir $@) $(OUT)/libcrown.so

# Front-end libraries from npm (src/web/vendor, installed by tools/install-deps.sh play)
# are served under /vendor/ when installed; the page copes without them. npm dates its
# files 1985, so the install's stamp is what tells make they arrived.
WEB_VENDOR := $(wildcard src/web/vendor/node_modules/uplot/dist/uPlot.esm.js src/web/vendor/node_modules/uplot/dist/uPlot.min.css)
WEB_VENDOR_STAMP := $(wildcard src/web/vendor/node_modules/.crown-installed)

$(WEB_GEN): tools/embed-assets.sh $(WEB_STATIC) $(WEB_VENDOR) $(WEB_VENDOR_STAMP)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@tools/embed-assets.sh src/web/static $(foreach f,$(WEB_VENDOR),$(f)=/vendor/$(notdir $(f))) > $@.tmp && mv $@.tmp $@

$(NETS_GEN): tools/embed-nets.sh $(NETS)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@tools/embed-nets.sh nets > $@.tmp && mv $@.tmp $@

$(OUT)/obj/gen/nnue_nets_data.o: $(NETS_GEN)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(OUT)/pic/gen/nnue_nets_data.o: $(NETS_GEN)
	@mkdir -p $(dir $@)
	@echo "  CC PIC  $<"
	@$(CC) $(CFLAGS_ALL) $(PIC_FLAGS) -c $< -o $@

$(OUT)/obj/gen/web_assets_data.o: $(WEB_GEN)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CFLAGS_ALL) -c $< -o $@

$(CROWN): $(CLI_OBJ) $(WEB_OBJ) $(ENGINE_LIB)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $(CLI_OBJ) $(WEB_OBJ) $(ENGINE_LIB) $(WEB_LIBS) $(LAB_LIBS) $(LDLIBS_ALL)

# Tests link the library, the shared test support and the CLI's modules (all but main).
$(OUT)/tests/%: $(OUT)/obj/tests/%.o $(TEST_SUPPORT_OBJ) $(CLI_MODULE_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $< $(TEST_SUPPORT_OBJ) $(CLI_MODULE_OBJ) $(ENGINE_LIB) -lcmocka $(LAB_LIBS) $(LDLIBS_ALL)

# The passkey checks' test links the one web file it tests, with that file's libraries.
$(OUT)/tests/test_webauthn: $(OUT)/obj/tests/test_webauthn.o $(OUT)/obj/src/web/webauthn.o $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS_ALL) -o $@ $^ -lcmocka -ljansson -lsodium $(FIDO_LIBS) $(LDLIBS_ALL)

# The install test (tests/test_install.sh) runs as one of the build's test programs, told
# which build it is so that it installs and compiles with that build's compiler and flags.
$(OUT)/tests/test_install: tests/test_install.sh Makefile
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nexec tests/test_install.sh %s %s %s "%s"\n' '$(OUT)' '$(BUILD)' \
	    '$(CC)' '$(filter -fsanitize%,$(OPT))' > $@
	@chmod +x $@

# The Debian packaging's quick checks (tests/test_debian.sh), likewise.
$(OUT)/tests/test_debian: tests/test_debian.sh Makefile
	@mkdir -p $(dir $@)
	@printf '#!/bin/sh\nexec tests/test_debian.sh %s\n' '$(OUT)' > $@
	@chmod +x $@

tests: $(CROWN) $(LIB) $(SHLIB) $(TEST_BIN) $(OUT)/tests/test_install $(OUT)/tests/test_debian

# A fuzz target links the library and the web server without its command (serve.c
# needs the CLI), for fuzz_web_api.
# The server's Lab page runs studies, so the lab comes too.
FUZZ_WEB_OBJ := $(filter-out %/serve.o,$(WEB_OBJ)) $(LAB_SRC:%.c=$(OUT)/obj/%.o)
$(OUT)/fuzz/%: $(OUT)/obj/tests/fuzz/%.o $(FUZZ_SUPPORT_OBJ) $(FUZZ_WEB_OBJ) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(LDFLAGS_ALL) -fsanitize=fuzzer -o $@ $< $(FUZZ_SUPPORT_OBJ) $(FUZZ_WEB_OBJ) $(ENGINE_LIB) \
	    $(WEB_LIBS) $(LAB_LIBS) $(LDLIBS_ALL)
.SECONDARY: $(FUZZ_SRC:%.c=$(OUT)/obj/%.o)

fuzz-targets: $(FUZZ_BIN)

# The Python module (python/crownmodule.c, over crown.h only) for Debian's python3, with
# the library's position-independent objects linked in so that it needs no libcrown.so
# at run time. Python's headers are system headers; -Wno-pedantic because its slot
# tables (PyType_Slot) hold functions as void *, -Wno-write-strings for its keyword
# lists (char *[]).
PYTHON ?= /usr/bin/python3
PY_INC = $(shell $(PYTHON) 2>/dev/null -c 'import sysconfig; print(sysconfig.get_paths()["include"])')
PY_EXT = $(shell $(PYTHON) 2>/dev/null -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
PY_MOD = $(OUT)/python/crown$(PY_EXT)
$(PY_MOD): python/crownmodule.c include/crown.h $(PIC_OBJ)
	@mkdir -p $(dir $@)
	@echo "  PYMOD   $@"
	@$(CC) $(CFLAGS_ALL) -Wno-pedantic -Wno-write-strings -isystem $(PY_INC) -fPIC -fvisibility=hidden -shared -o $@ \
	    python/crownmodule.c $(PIC_OBJ) $(LDFLAGS_ALL) $(LDLIBS_ALL)

python: $(PY_MOD)

# The files the module is built from, for the source archive of python/setup.py: with
# this Makefile they build it outside the repository.
python-sources:
	@echo Makefile python/crownmodule.c include/crown.h $(LIB_SRC) \
	    $(wildcard $(addsuffix *.h,$(sort $(dir $(LIB_SRC))))) \
	    tools/embed-nets.sh $(wildcard nets/*.nnue) $(wildcard nets/*.txt)

# Where make install puts the module: the folder Debian's python3 searches for PREFIX
# /usr (/usr/lib/python3/dist-packages) and /usr/local (/usr/local/lib/python3.X/
# dist-packages), else Python's own scheme, PREFIX/lib/python3.X/site-packages. Only
# install and uninstall ask Python, so that other targets do not need it; without
# Python's headers (python3-dev) make install leaves the module out.
ifneq ($(filter install uninstall,$(MAKECMDGOALS)),)
  PY_HAS_DEV := $(shell test -f '$(PY_INC)/Python.h' && echo yes)
endif
PYDIR = $(DESTDIR)$(shell $(PYTHON) -c 'import sys, sysconfig as s; p = sys.argv[1];     names = s.get_scheme_names();     scheme = "deb_system" if p == "/usr" and "deb_system" in names else         "posix_local" if p == "/usr/local" and "posix_local" in names else "posix_prefix";     base = "/usr" if scheme == "posix_local" else p;     print(s.get_path("platlib", scheme, vars={"base": base, "platbase": base}))' '$(PREFIX)')

# pytest on the module (tests/python); its closing line is the count.
# It checks the module against the C engine through libcrown.so (ctypes), and its
# packaging: pip and python3 -m build (test_packaging.py; it builds in build/release).
python-check: python $(CROWN) $(SHLIB)
	@cd tests/python && PYTHONPATH=$(CURDIR)/$(OUT)/python CROWN_BIN=$(CURDIR)/$(CROWN) \
	    CROWN_LIB=$(CURDIR)/$(SHLIB) $(PYTHON) -m pytest -q -p no:cacheprovider .

# Runs every fuzz target of the fuzz build for FUZZ_SECONDS from its seed corpus.
fuzz:
	@$(MAKE) --no-print-directory BUILD=fuzz fuzz-targets
	@tools/run-fuzz.sh build/fuzz $(FUZZ_SECONDS)

# make test's short run of every fuzz target: linked with the sanitizer build's objects,
# which have no coverage instrumentation, so it replays each seed corpus under ASan and
# UBSan and tries inputs guided by the targets' own code only, for FUZZ_SECONDS. It
# spares make test a whole build of its own (build/fuzz: the same objects with coverage,
# for the searching runs above).
fuzz-smoke:
	@$(MAKE) --no-print-directory BUILD=asan CC=clang fuzz-targets
	@tools/run-fuzz.sh build/asan-clang $(FUZZ_SECONDS)

# Runs every test binary and the command-line transcripts of one build.
check: tests
	@tools/run-tests.sh $(OUT)

# The one test command: release (gcc) and sanitizers (clang), each warning-free. The parts
# and their temporary folder, timing table and closing count are in tools/run-all-tests.sh.
test: deps-test
	@MAKE="$(MAKE)" tools/run-all-tests.sh $(FUZZ_TEST_SECONDS)

# The search and contract tests in the debug build, where GAME_CHECK runs is_ok after
# every make and unmake (about 20 s); at nice 19 beside the browser tests, so without
# the search tests' wall-clock bounds (the release and sanitizer runs keep them).
check-invariants: $(OUT)/tests/test_search $(OUT)/tests/test_contract
	CROWN_TEST_UNTIMED=1 $(OUT)/tests/test_search >/dev/null
	$(OUT)/tests/test_contract >/dev/null
	@echo "$(OUT): search and contract tests pass with every state checked"

# The web tests of one build against its crown: API tests, and browser tests (e2e).
web-check: $(CROWN)
	@tools/run-web-tests.sh $(OUT) $(WEB_TESTS)

# crown.pc is tools/crown.pc.in with this install's prefix and version. The Python module
# goes in too when Python's headers are there (python3-dev).
install: $(CROWN) $(LIB) $(SHLIB) $(if $(PY_HAS_DEV),$(PY_MOD))
	install -d $(BINDIR) $(LIBDIR) $(INCDIR) $(PCDIR) $(MANDIR)
	install -m 755 $(CROWN) $(BINDIR)/crown
	install -m 644 $(LIB) $(LIBDIR)/libcrown.a
	install -m 755 $(SHLIB) $(LIBDIR)/libcrown.so.$(VERSION)
	ln -sf libcrown.so.$(VERSION) $(LIBDIR)/$(SONAME)
	ln -sf $(SONAME) $(LIBDIR)/libcrown.so
	install -m 644 include/crown.h $(INCDIR)/crown.h
	sed -e 's|@PREFIX@|$(PREFIX)|' -e 's|@LIBSUBDIR@|$(LIBSUBDIR)|' -e 's|@VERSION@|$(VERSION)|' tools/crown.pc.in > $(PCDIR)/crown.pc
	chmod 644 $(PCDIR)/crown.pc
	install -m 644 docs/crown.1 $(MANDIR)/crown.1
	for c in $(MAN_COMMANDS); do \
	    $(CROWN) help --man $$c >$(MANDIR)/crown-$$c.1 && chmod 644 $(MANDIR)/crown-$$c.1 || exit 1; \
	done
	install -d $(COMPLETIONDIR)
	$(CROWN) completion bash >$(COMPLETIONDIR)/crown
	chmod 644 $(COMPLETIONDIR)/crown
ifeq ($(PY_HAS_DEV),yes)
	install -d $(PYDIR)
	install -m 644 $(PY_MOD) $(PYDIR)/crown$(PY_EXT)
else
	@echo "make install: no Python headers for $(PYTHON) (python3-dev), so no Python module"
endif

uninstall:
	rm -f $(BINDIR)/crown $(LIBDIR)/libcrown.a $(LIBDIR)/libcrown.so.$(VERSION) \
	    $(LIBDIR)/$(SONAME) $(LIBDIR)/libcrown.so $(INCDIR)/crown.h $(PCDIR)/crown.pc \
	    $(MANDIR)/crown.1 $(MANDIR)/crown-*.1 $(COMPLETIONDIR)/crown
ifeq ($(PY_HAS_DEV),yes)
	rm -f $(PYDIR)/crown$(PY_EXT)
endif

# Debian packages: built from a copy of the tree in build/deb (tools/build-deb.sh), then
# installed into a fresh Debian root and tried there (bench/deb-test.sh); docs/INSTALL.md.
deb:
	@tools/install-deps.sh deb
	@tools/build-deb.sh

deb-test: deb
	@bench/deb-test.sh

play:
	@tools/install-deps.sh play
	$(MAKE) --no-print-directory BUILD=release
	$(CROWN) play kings-valley

bench: deps
	$(MAKE) --no-print-directory BUILD=release
	bench/run.sh

# The Python module's speed against the same random game loop in C (bench/python.py);
# the C loop links the module's own objects, so both run the same machine code.
$(OUT)/bench/c_random_loop: bench/c_random_loop.c include/crown.h $(PIC_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LINK    $@"
	@$(CC) $(CFLAGS_ALL) -o $@ bench/c_random_loop.c $(PIC_OBJ) $(LDFLAGS_ALL) $(LDLIBS_ALL)

bench-python: python $(OUT)/bench/c_random_loop
	BUILD=$(BUILD) $(PYTHON) bench/python.py

deps:
	@tools/install-deps.sh build

deps-test:
	@tools/install-deps.sh test

# Static analysis; clean, and run early by `make test`. Library macros come from
# tools/cppcheck/*.cfg, and each accepted false positive is in tools/cppcheck/suppressions.txt.
# cppcheck checks files on every core (-j); the jobs do not share a make jobserver.
LINT_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
lint:
	cppcheck --quiet -j $(LINT_JOBS) --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
	    --library=tools/cppcheck/jansson.cfg --suppressions-list=tools/cppcheck/suppressions.txt \
	    -Isrc -Iinclude src

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(PIC_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(WEB_OBJ:.o=.d) $(TEST_SUPPORT_OBJ:.o=.d) $(TEST_BIN:$(OUT)/tests/%=$(OUT)/obj/tests/%.d) \
    $(FUZZ_SUPPORT_OBJ:.o=.d) $(FUZZ_BIN:$(OUT)/fuzz/%=$(OUT)/obj/tests/fuzz/%.d)
