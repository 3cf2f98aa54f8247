/* The record's schema names (docs/record.md, docs/record.schema.json):
 * records/ writes every record and reads every one back, so they are
 * its; a number changes with any change a reader must know of. */
#ifndef GPULAB_RECORDS_SCHEMA_H
#define GPULAB_RECORDS_SCHEMA_H

/* What every record's "schema" starts with. */
#define RECORD_SCHEMA_PREFIX "gpulab-record/"
/* The record as one JSON document: what `--format json` prints at the end
 * of a run (emit/json.c, given it by the session), and what -o wrote
 * before the journal. */
#define RECORD_SCHEMA RECORD_SCHEMA_PREFIX "1.4"
/* What a reader takes of the document: this major, and any minor of it
 * ("gpulab-record/1" or "gpulab-record/1.N"), since a minor only adds
 * fields. */
#define RECORD_SCHEMA_MAJOR RECORD_SCHEMA_PREFIX "1"
/* The journal -o writes (docs/record.md, "On disk"): a header line, a
 * line per point, a closing line (records/output.c); and its major. */
#define RECORD_JOURNAL_SCHEMA RECORD_SCHEMA_PREFIX "2.0"
#define RECORD_JOURNAL_MAJOR RECORD_SCHEMA_PREFIX "2"
/* A journal with gpulab grade's member: 2.0's fields and grade. */
#define RECORD_GRADE_SCHEMA RECORD_SCHEMA_PREFIX "2.1"

#endif
