// SPDX-License-Identifier: GPL-2.0
/*
 * kwrite: write a value to a sysfs (or any) file with one write() and say
 * what it returned: "ok" or the errno name. For the bad-input test.
 *
 *   kwrite PATH VALUE     (VALUE "\n" writes a lone newline)
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *errname(int e)
{
	const char *name = strerrorname_np(e);

	return name ? name : "E?";
}

int main(int argc, char **argv)
{
	const char *v;
	ssize_t n;
	int fd;

	if (argc != 3) {
		fprintf(stderr, "usage: kwrite PATH VALUE\n");
		return 2;
	}
	v = strcmp(argv[2], "\\n") ? argv[2] : "\n";
	fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		printf("open:%s\n", errname(errno));
		return 1;
	}
	n = write(fd, v, strlen(v));
	if (n < 0)
		printf("%s\n", errname(errno));
	else
		printf("ok\n");
	close(fd);
	return n < 0;
}
