/* tests/unit/test-meta.c: the one reader of the meta table (parse/db.c), on values written by
 * hand: integers, "unknown", text that is not a number, NULL, an absent key. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <sqlite3.h>

#include "parse/parse.h"

static void test_meta_int(void **state)
{
	static const struct { const char *key; int ret; int64_t v; } cases[] = {
		{ "a", 0, 12 }, { "neg", 0, -5 }, { "big", 0, 1700000000123456789LL },
		{ "lost", 1, 77 },		/* "unknown": *v untouched */
		{ "junk", -1, 77 }, { "empty", -1, 77 }, { "null", -1, 77 }, { "absent", -1, 77 },
	};
	sqlite3 *db;
	char *s;

	(void)state;
	assert_int_equal(sqlite3_open(":memory:", &db), SQLITE_OK);
	assert_int_equal(sqlite3_exec(db, "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT);"
		"INSERT INTO meta VALUES('a','12'),('neg','-5'),('big','1700000000123456789'),"
		"('lost','unknown'),('junk','12x'),('empty',''),('null',NULL)", NULL, NULL, NULL),
		SQLITE_OK);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int64_t v = 77;

		if (trax_db_meta_int(db, cases[i].key, &v) != cases[i].ret || v != cases[i].v)
			fail_msg("%s: want %d, %lld", cases[i].key, cases[i].ret,
				 (long long)cases[i].v);
	}
	s = trax_db_meta(db, "lost");
	assert_string_equal(s, "unknown");
	free(s);
	assert_null(trax_db_meta(db, "absent"));
	assert_null(trax_db_meta(db, "null"));
	sqlite3_close(db);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_meta_int),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
