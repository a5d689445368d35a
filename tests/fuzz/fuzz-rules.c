/*
 * tests/fuzz/fuzz-rules.c: rule files through trax_rules_parse (what `trax check` and
 * `trax gate` read): JSON, every key of every metric, units, windows, task globs and regexes.
 * The contract: either rules, or a negative error whose every problem is one line starting with
 * the file's name; never a positive return, rules with an error, or an error with no problem.
 */
#include <stdlib.h>
#include <string.h>

#include "rules/rules.h"
#include "tests/fuzz/fuzz.h"

#define RULES_NAME "fuzz-rules.json"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_init("rules");
	return 0;
}

static void line_check(const char *what, const char *msg)
{
	if (!msg || !msg[0])
		fuzz_fail("%s: empty message", what);
	if (strchr(msg, '\n'))
		fuzz_fail("%s of more than one line: %s", what, msg);
	if (strncmp(msg, RULES_NAME, strlen(RULES_NAME)))
		fuzz_fail("%s does not start with the file's name: %s", what, msg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trax_rules *rs = NULL;
	struct trax_error_list problems = { 0 };
	struct trax_error err = { 0 };
	char *text = malloc(size + 1);
	int ret;

	if (!text)
		abort();
	if (size)
		memcpy(text, data, size);
	text[size] = '\0';
	ret = trax_rules_parse(text, RULES_NAME, &rs, &problems, &err);
	if (ret > 0)
		fuzz_fail("trax_rules_parse returned %d", ret);
	if (ret == 0) {
		if (!rs)
			fuzz_fail("rules parsed but none returned");
		if (problems.n)
			fuzz_fail("rules parsed with %d problems: %s", problems.n, problems.msg[0]);
	} else {
		if (rs)
			fuzz_fail("error %d but rules returned: %s", ret, err.msg);
		if (!problems.n)
			fuzz_fail("error %d with no problem listed: %s", ret, err.msg);
		line_check("error", err.msg);
		for (int i = 0; i < problems.n; i++)
			line_check("problem", problems.msg[i]);
	}
	trax_rules_free(rs);
	trax_error_list_release(&problems);
	free(text);
	return 0;
}
