#include "model/kver.h"
#include <stdio.h>
#include "base/diag.h"
#include "base/banned.h"

int kver_parse(const char *s, uint32_t *out, int lenient)
{
	unsigned part[3] = { 0, 0, 0 };
	int n = 0;
	const char *p = s;
	for (;;) {
		if (*p < '0' || *p > '9')
			return -1;
		unsigned v = 0;
		while (*p >= '0' && *p <= '9') {
			v = v * 10 + (unsigned)(*p++ - '0');
			if (v > 255)
				return -1;
		}
		part[n++] = v;
		if (*p == '.' && n < 3) {
			p++;
			continue;
		}
		break;
	}
	if (n < 2 || (*p && !(lenient && (*p == '-' || *p == '+' || *p == '.'))))
		return -1;
	*out = KVER(part[0], part[1], part[2]);
	return 0;
}

char *kver_str(uint32_t v, char buf[16])
{
	if (v & 0xff)
		snprintf(buf, 16, "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
	else
		snprintf(buf, 16, "%u.%u", v >> 16, (v >> 8) & 0xff);
	return buf;
}

uint32_t kver_release(uint32_t v)
{
	return (v >> 16) >= 3 ? v & ~0xffu : v;
}

bool kver_has(uint32_t kv, uint32_t since, const uint32_t bp[KVER_NBACKPORTS])
{
	if (kv >= since)
		return true;
	for (int i = 0; i < KVER_NBACKPORTS && bp[i]; i++)
		if (kver_release(bp[i]) == kver_release(kv) && kv >= bp[i])
			return true;
	return false;
}

int kver_parse_within(const char *what, const char *arg, uint32_t lo, uint32_t hi, uint32_t *kv)
{
	char a[16], b[16];
	if (kver_parse(arg, kv, 0) < 0)
		return err("%s takes a version such as 6.18, not '%s'", what, arg);
	if (!*kv || *kv < lo || kver_release(*kv) > kver_release(hi))
		return err("%s %s is outside the kernels the catalogue knows (%s to %s)", what, arg, kver_str(lo, a),
			   kver_str(hi, b));
	return 0;
}
