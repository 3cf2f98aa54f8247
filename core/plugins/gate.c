#include "plugins/gate.h"

#include "config/params.h"

#include <stdio.h>
#include <string.h>

size_t gate_count(const char *gate)
{
	size_t n = 0;
	for (const char *p = gate; p && *p; n++) {
		p += strcspn(p, ";");
		p += *p == ';';
	}
	return n;
}

int gate_case_at(const char *gate, size_t i, struct gate_case *c, char *err, size_t errlen)
{
	const char *p = gate;
	size_t index = i;
	for (; i > 0 && p && *p; i--)
		p += strcspn(p, ";") + (p[strcspn(p, ";")] == ';');
	size_t len = p ? strcspn(p, ";") : 0;
	*c = (struct gate_case){ 0 };
	if (len >= sizeof c->text) {
		snprintf(err, errlen, "gate case '%.40s...' is longer than %zu bytes", p, sizeof c->text - 1);
		return -1;
	}
	memcpy(c->text, p, len);
	for (char *save, *w = strtok_r(c->text, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		char *eq = strchr(w, '=');
		if (!eq || eq == w || !eq[1] || c->nkeys == GATE_MAX_KEYS) {
			snprintf(err, errlen, "gate case '%.*s': '%s' is not key=value, or one of more than %d", (int)len, p, w,
				 GATE_MAX_KEYS);
			return -1;
		}
		*eq = 0;
		c->kv[c->nkeys++] = (struct keyval){ w, eq + 1 };
	}
	if (c->nkeys == 0) {
		snprintf(err, errlen, "gate case %zu is empty", index);
		return -1;
	}
	return 0;
}

int gate_check(const struct gpulab_exercise *e, char *err, size_t errlen)
{
	struct gate_case c;
	char why[256];
	for (size_t i = 0, n = gate_count(e->gate); i < n; i++) {
		if (gate_case_at(e->gate, i, &c, err, errlen))
			return -1;
		for (int k = 0; k < c.nkeys; k++) {
			size_t values = 0;
			if (exercise_axis(e, c.kv[k].key, c.kv[k].value, &values, why, sizeof why) != PARSE_OK) {
				snprintf(err, errlen, "gate case %zu: %s=%s: %s", i, c.kv[k].key, c.kv[k].value, why);
				return -1;
			}
			if (values != 1) {
				snprintf(err, errlen, "gate case %zu: %s=%s: one value, not a list", i, c.kv[k].key, c.kv[k].value);
				return -1;
			}
		}
	}
	return 0;
}
