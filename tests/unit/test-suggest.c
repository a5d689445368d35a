/* tests/unit/test-suggest.c: edit distances worked by hand, and which names are suggested. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "util/suggest.h"

/* Textbook cases: kitten -> sitting is k/s, e/i, +g = 3; a swap of neighbours is one edit. */
static void test_distance(void **state)
{
	(void)state;
	assert_int_equal(trax_edit_distance("kitten", "sitting"), 3);
	assert_int_equal(trax_edit_distance("ab", "ba"), 1);
	assert_int_equal(trax_edit_distance("", "abc"), 3);
	assert_int_equal(trax_edit_distance("abc", ""), 3);
	assert_int_equal(trax_edit_distance("same", "same"), 0);
	assert_int_equal(trax_edit_distance("State", "state"), 0);
	assert_int_equal(trax_edit_distance("residencey", "residency"), 1);
	/* "ca" -> "abc" is 3 under this (restricted) distance: no edit of a swapped pair */
	assert_int_equal(trax_edit_distance("ca", "abc"), 3);
}

static void test_suggest(void **state)
{
	static const char *const metrics[] = { "runtime", "residency", "duty_cycle",
					       "wakeup_latency", "period", NULL };
	(void)state;
	assert_string_equal(trax_suggest("wakup_latency", metrics, -1), "wakeup_latency");
	assert_string_equal(trax_suggest("residencey", metrics, -1), "residency");
	assert_string_equal(trax_suggest("Runtime", metrics, -1), "runtime");
	assert_string_equal(trax_suggest("peroid", metrics, 5), "period");
	/* too far from every name: no guess */
	assert_null(trax_suggest("xyz", metrics, -1));
	assert_null(trax_suggest("temperature", metrics, -1));
	/* the name itself is not a suggestion */
	assert_null(trax_suggest("runtime", metrics, -1));
	assert_null(trax_suggest("", metrics, -1));
	/* n counts: "period" is the 5th name, left out with n = 4 */
	assert_null(trax_suggest("perod", metrics, 4));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_distance),
		cmocka_unit_test(test_suggest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
