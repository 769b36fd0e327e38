/*
 * notify-listen: the end of sd_notify(3) that systemd holds, for a daemon the
 * tests start themselves.
 *
 *   notify-listen PATH >FILE
 *
 * Binds a datagram socket at PATH (the daemon's NOTIFY_SOCKET) and writes
 * each datagram it receives to standard output, followed by a newline, until
 * SIGTERM or SIGINT, then removes PATH. sd_notify puts one assignment on a
 * line ("READY=1", "STATUS=...", "STOPPING=1"), so FILE reads like the
 * messages systemd gets: the suites wait on the daemon's STATUS= lines (the
 * line `systemctl status` shows: the sensor, the state and why) instead of
 * sleeping, and the daemon is not woken to be asked. The bytes are written
 * as they came (the hostile-strings test reads them byte by byte).
 *
 * The socket exists once bind(2) has returned; a datagram socket needs no
 * listen(2), so the caller waits for PATH to be a socket and starts the
 * daemon.
 */
#include "common.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static volatile sig_atomic_t stop_requested;

static void on_stop(int signal_number)
{
	(void)signal_number;
	stop_requested = 1;
}

/* Writes all of data, or dies: a test that misses a status would wait in vain. */
static void write_all(const char *data, size_t length)
{
	while (length > 0) {
		ssize_t written = write(STDOUT_FILENO, data, length);
		if (written < 0) {
			if (errno == EINTR)
				continue;
			die_errno("write");
		}
		data += written;
		length -= (size_t)written;
	}
}

int main(int argc, char **argv)
{
	helper_name = "notify-listen";
	if (argc != 2)
		die("usage: notify-listen PATH");
	const char *path = argv[1];

	struct sockaddr_un address = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof(address.sun_path))
		die("%s: path too long for a socket", path);
	strcpy(address.sun_path, path);

	/* No SA_RESTART: a stop signal interrupts recv(). */
	struct sigaction action = { .sa_handler = on_stop };
	sigemptyset(&action.sa_mask);
	sigaction(SIGTERM, &action, NULL);
	sigaction(SIGINT, &action, NULL);

	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		die_errno("socket");
	unlink(path);
	if (bind(fd, (struct sockaddr *)&address, sizeof(address)) < 0)
		die_errno("bind %s", path);

	/* sd_notify's datagrams are small; a STATUS= line is bounded by the daemon. */
	static char datagram[65536];
	while (!stop_requested) {
		ssize_t received = recv(fd, datagram, sizeof(datagram) - 1, 0);
		if (received < 0) {
			if (errno == EINTR)
				continue;
			die_errno("recv");
		}
		datagram[received] = '\n';
		write_all(datagram, (size_t)received + 1);
	}
	unlink(path);
	return 0;
}
