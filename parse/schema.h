/* parse/schema.h: the fixed tables of a trax database (event tables are made per trace). */
#ifndef TRAX_PARSE_SCHEMA_H
#define TRAX_PARSE_SCHEMA_H

#include "parse/dbw.h"

/* Queue the creation of the bookkeeping and derived tables (see doc/db.md). */
void schema_create_core(struct dbw *w);

/* SQL creating the indexes of the fixed tables. Must not be freed. */
const char *schema_core_indexes(void);

/* Whether name (ignoring ASCII case, as SQLite does) is one of those indexes. */
int schema_is_index(const char *name);

#endif
