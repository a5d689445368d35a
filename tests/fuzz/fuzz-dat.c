/*
 * tests/fuzz/fuzz-dat.c: trace.dat files through `trax load`'s path (trax_load): the section
 * checks of parse/datlayout.c, the probe child, libtracecmd's open and event iteration, the
 * loader and the derivations. Seeds: the trace.dat fixtures (tests/fuzz/seeds.sh).
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init("dat");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_check(fuzz_write("in.dat", data, size));
	return 0;
}
