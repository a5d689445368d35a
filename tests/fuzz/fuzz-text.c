/*
 * tests/fuzz/fuzz-text.c: ftrace text (tracefs `trace`, `trace-cmd report` in its forms)
 * through trax_load: detection, parse/text.c's line and field parser, the loader and the
 * derivations. Seeds: the text fixtures and the first lines of the reference traces.
 */
#include "tests/fuzz/fuzz.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init("text");
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_load_check(fuzz_write("in.txt", data, size));
	return 0;
}
