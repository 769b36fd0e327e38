/*
 * hand.h: a display held in a person's hand (or lying on a table), as an
 * accelerometer sees it. Shared by the two paths that present poses to a
 * driver: helpers/hand (i2c-stub registers, or the in_accel_*_raw files of
 * Tests/umockdev's fake sysfs trees) and helpers/uhid-accel (the HID sensor
 * hub's reports), so all show the same model.
 *
 * The pose. PITCH tilts the top edge away from the user, from upright; ROLL
 * raises the left edge (lib/pose.sh). Gravity in the display frame is
 * (sin r, -cos r cos p, -cos r sin p) g; the sensor reads M^T of it, M being
 * the mount matrix the daemon should apply; raw = value / scale - offset,
 * rounded half away from zero, clamped to what the part can report.
 *
 * How the pose is held (the "hold"):
 *   fixed  the target exactly, sample after sample: nothing moves, no noise
 *          (the exact register values the table-like checks compare).
 *   table  lying still: the target plus the sensor's noise only.
 *   hand   held: the target plus postural sway and physiological tremor
 *          (angles, below), plus the sensor's noise.
 *
 * The model of a hand (/work/shared/notes/intent-and-control.md, "Human
 * motion": postural sway below 1 Hz, "a degree or so"; tremor 8-12 Hz,
 * angular jitter "of the order of 0.05-0.2 degrees holding a tablet"; a
 * device on a table shows only the sensor's noise, "a few mg rms"):
 *   sway    pitch: 0.55 deg at 0.11 Hz + 0.30 deg at 0.29 Hz + 0.15 deg at
 *           0.67 Hz (at most 1.0 deg); roll: 0.40 at 0.07 + 0.25 at 0.23 +
 *           0.10 at 0.53 (at most 0.75 deg). Phases from the seed.
 *   tremor  pitch: A(t) sin(phase(t)), the amplitude A wandering between
 *           0.05 and 0.2 deg (0.125 +- 0.075, at 0.13 Hz), the frequency
 *           between 8 and 12 Hz (10 +- 2, at 0.05 Hz); roll: half of that,
 *           wandering at 0.17 and 0.04 Hz. Phases from the seed.
 *   noise   white Gaussian, sigma given in mg (the same on every axis; in
 *           LSB it depends on the part's resolution), one draw per axis per
 *           sample, from the seeded generator.
 * Rotation only: the linear acceleration of tremor (a few mg at the hand)
 * is of the order of the noise and left out.
 *
 * Carried (a put-down, a pick-up): the hand moves the device straight
 * down onto a surface, or up off it, by HAND_CARRY_METRES over a span of
 * seconds, easing in and out as a hand moves (a cosine: d(t) = D (1 -
 * cos(pi x)) / 2, x the fraction of the span), so the accelerometer reads
 * gravity times 1 + a/g with a = D pi^2 cos(pi x) / (2 span^2) (up
 * positive): over 0.8 s that is 0.16 g at its peak, the 0.1-0.3 g at which a
 * device is lowered or lifted. A carry may turn the device to a new pose on
 * the way (as a hand lays it flat), eased the same way. A lowering ends in a
 * touchdown, a knock of
 * HAND_KNOCK_G at 20 Hz dying out in 40 ms, and the table hold from then
 * on; a lift holds in the hand from its start. (SyntheticMotion's
 * MotionScript models a put-down the same way, for the physics' own tests.)
 * Turned (a put-down or a pick-up without a jolt): the same eased turn to
 * the pose, the device neither lowered nor lifted and no knock on arrival:
 * a hand laying it back onto a table or tipping it onto a stand, then
 * letting go (the table hold from the arrival), or taking it up off one
 * (in the hand from the start). At most 1.2 deg off the target
 * in pitch, so the excursion between two moments stays under 2.5 deg:
 * inside the daemon's 4 degree dead zone at rest.
 *
 * Time is the model's own (seconds since the helper started), so the
 * motion runs on through pose changes as a real hand's would, and a run
 * with the same seed shows the same motion at the same moments.
 *
 * One hand, two sensors: the two halves of a convertible (lib/hinge.sh)
 * sway and tremble together. Their helpers get the same motion seed and
 * the same epoch (hand_seed_motion): the same motion at the same moments,
 * each with its own noise.
 *
 * Control: the helper reads commands from the FIFO DIR/cmd and answers each
 * on the FIFO DIR/ack (it holds both open read-write, so neither side ever
 * blocks in open(), and a shell can talk to it with builtins only):
 *   SEQ pose HOLD PITCH ROLL M00 M01 M02 M10 M11 M12 M20 M21 M22
 *   SEQ hold HOLD               (the same target, held another way)
 *   SEQ carry down|up SECONDS [PITCH ROLL]
 *                               (lowered onto a surface, then table; or
 *                                lifted off it, in the hand; turned to the
 *                                pose on the way: see above)
 *   SEQ turn down|up SECONDS PITCH ROLL
 *                               (as carry, turned only: no lowering or
 *                                lifting, no knock)
 *   SEQ raw X Y Z               (exactly these raw values, as fixed)
 * The answer is "SEQ X Y Z", the raw values of the target without motion or
 * noise (what a fixed hold stores), or "SEQ error WHY". SEQ is any word.
 */
#ifndef TILTSCROLL_HELPERS_HAND_H
#define TILTSCROLL_HELPERS_HAND_H

#include "common.h"

#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#define HAND_G 9.80665
#define HAND_PI 3.14159265358979323846
#define HAND_CARRY_METRES 0.2
#define HAND_KNOCK_G 0.3
#define HAND_KNOCK_HZ 20.0
#define HAND_KNOCK_SECONDS 0.04

enum hand_hold { HOLD_FIXED, HOLD_TABLE, HOLD_HAND };

__attribute__((unused)) static bool hand_hold_parse(const char *word, enum hand_hold *hold)
{
	if (strcmp(word, "fixed") == 0)
		*hold = HOLD_FIXED;
	else if (strcmp(word, "table") == 0)
		*hold = HOLD_TABLE;
	else if (strcmp(word, "hand") == 0)
		*hold = HOLD_HAND;
	else
		return false;
	return true;
}

/* splitmix64: small, fast, and the same sequence for the same seed. */
struct hand_rng {
	uint64_t state;
};

static uint64_t hand_rng_next(struct hand_rng *r)
{
	uint64_t z = (r->state += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform in (0, 1]: never 0, so its logarithm is finite. */
static double hand_rng_uniform(struct hand_rng *r)
{
	return (double)((hand_rng_next(r) >> 11) + 1) * 0x1.0p-53;
}

/* Standard normal (Box-Muller, one of the pair). */
static double hand_rng_gauss(struct hand_rng *r)
{
	double u = hand_rng_uniform(r), v = hand_rng_uniform(r);
	return sqrt(-2 * log(u)) * cos(2 * HAND_PI * v);
}

struct hand_sine {
	double amplitude, frequency, phase;
};

/* One of pitch or roll: three sway components and a wandering tremor. */
struct hand_motion {
	struct hand_sine sway[3];
	double tremor_amplitude, tremor_amplitude_swing, tremor_amplitude_rate, tremor_amplitude_phase;
	double tremor_frequency, tremor_frequency_swing, tremor_frequency_rate, tremor_frequency_phase;
	double tremor_phase;
};

static const struct hand_motion hand_pitch_motion = {
	.sway = {{0.55, 0.11, 0}, {0.30, 0.29, 0}, {0.15, 0.67, 0}},
	.tremor_amplitude = 0.125, .tremor_amplitude_swing = 0.075, .tremor_amplitude_rate = 0.13,
	.tremor_frequency = 10, .tremor_frequency_swing = 2, .tremor_frequency_rate = 0.05,
};

static const struct hand_motion hand_roll_motion = {
	.sway = {{0.40, 0.07, 0}, {0.25, 0.23, 0}, {0.10, 0.53, 0}},
	.tremor_amplitude = 0.0625, .tremor_amplitude_swing = 0.0375, .tremor_amplitude_rate = 0.17,
	.tremor_frequency = 10, .tremor_frequency_swing = 2, .tremor_frequency_rate = 0.04,
};

static void hand_motion_seed(struct hand_motion *m, struct hand_rng *r)
{
	for (int i = 0; i < 3; i++)
		m->sway[i].phase = 2 * HAND_PI * hand_rng_uniform(r);
	m->tremor_amplitude_phase = 2 * HAND_PI * hand_rng_uniform(r);
	m->tremor_frequency_phase = 2 * HAND_PI * hand_rng_uniform(r);
	m->tremor_phase = 2 * HAND_PI * hand_rng_uniform(r);
}

/* Degrees off the target at model time t. */
static double hand_motion_at(const struct hand_motion *m, double t)
{
	double a = 0;
	for (int i = 0; i < 3; i++)
		a += m->sway[i].amplitude * sin(2 * HAND_PI * m->sway[i].frequency * t + m->sway[i].phase);
	double amplitude = m->tremor_amplitude +
			   m->tremor_amplitude_swing *
				   sin(2 * HAND_PI * m->tremor_amplitude_rate * t + m->tremor_amplitude_phase);
	/* The integral of 2 pi (f + swing sin(2 pi rate t + phi)): the
	 * instantaneous frequency wanders f +- swing. */
	double phase = m->tremor_phase + 2 * HAND_PI * m->tremor_frequency * t -
		       m->tremor_frequency_swing / m->tremor_frequency_rate *
			       cos(2 * HAND_PI * m->tremor_frequency_rate * t + m->tremor_frequency_phase);
	return a + amplitude * sin(phase);
}

/* How the part turns acceleration into raw numbers. */
struct hand_sensor {
	double scale[3];  /* m/s^2 per LSB (in_accel_*_scale) */
	double offset[3]; /* value = (raw + offset) * scale */
	double noise[3];  /* sigma of the noise, LSB */
	long min, max;    /* what the part can report */
};

/* noise_mg: sigma in mg, turned into LSB of each axis. */
__attribute__((unused)) static void hand_sensor_set_noise(struct hand_sensor *s, double noise_mg)
{
	for (int i = 0; i < 3; i++)
		s->noise[i] = noise_mg / 1000 * HAND_G / s->scale[i];
}

static long hand_round(double v)
{
	return v < 0 ? -(long)(-v + 0.5) : (long)(v + 0.5);
}

/* The raw reading of a pose, plus noise (LSB, per axis), the gravity it
 * shows weighing `weight` g (1 at rest; more while accelerated upwards). */
static void hand_pose_raw(const struct hand_sensor *s, const double m[9], double pitch, double roll, double weight,
			  const double noise[3], long raw[3])
{
	double rad = HAND_PI / 180;
	double d[3] = {weight * sin(roll * rad), -weight * cos(roll * rad) * cos(pitch * rad),
		       -weight * cos(roll * rad) * sin(pitch * rad)};
	for (int j = 0; j < 3; j++) {
		/* The sensor reads M^T d. */
		double g = 0;
		for (int i = 0; i < 3; i++)
			g += m[3 * i + j] * d[i];
		long r = hand_round(g * HAND_G / s->scale[j] - s->offset[j] + noise[j]);
		raw[j] = r < s->min ? s->min : r > s->max ? s->max : r;
	}
}

struct hand {
	struct hand_sensor sensor;
	struct hand_rng rng;
	struct hand_motion pitch_motion, roll_motion;
	double start; /* CLOCK_MONOTONIC of model time 0 */
	enum hand_hold hold;
	bool has_target; /* a pose or raw values were given */
	bool exact;      /* raw values given: they are the target, as fixed */
	double pitch, roll, matrix[9];
	long raw[3];
	/* A carry in progress: -1 lowering, +1 lifting, 0 none; its start and
	 * span (CLOCK_MONOTONIC seconds), the pose it turns from (to the
	 * target); the last touchdown (or -1). A turn is a carry that only
	 * turns the device (`turning`): no acceleration, no knock. */
	int carry;
	bool turning;
	double carry_start, carry_span, carry_pitch, carry_roll, touchdown;
};

__attribute__((unused)) static void hand_init(struct hand *h, const struct hand_sensor *sensor, uint64_t seed)
{
	memset(h, 0, sizeof *h);
	h->sensor = *sensor;
	h->rng.state = seed;
	h->pitch_motion = hand_pitch_motion;
	h->roll_motion = hand_roll_motion;
	hand_motion_seed(&h->pitch_motion, &h->rng);
	hand_motion_seed(&h->roll_motion, &h->rng);
	h->start = monotonic_seconds();
	h->hold = HOLD_FIXED;
	h->touchdown = -1;
}

/* The motion of another hand holding the same device: its phases drawn
 * from motion_seed (the noise keeps the hand's own seed), its model time
 * counted from epoch (CLOCK_MONOTONIC seconds). */
__attribute__((unused)) static void hand_seed_motion(struct hand *h, uint64_t motion_seed, double epoch)
{
	struct hand_rng motion = {motion_seed};
	h->pitch_motion = hand_pitch_motion;
	h->roll_motion = hand_roll_motion;
	hand_motion_seed(&h->pitch_motion, &motion);
	hand_motion_seed(&h->roll_motion, &motion);
	h->start = epoch;
}

/* The vertical acceleration of a carry or a touchdown at `now`, in g (up
 * positive), and the pose it has turned to (*pitch, *roll: the target
 * unless a carry is turning the device); a lowering that is over becomes
 * the table hold. */
static double hand_carry_g(struct hand *h, double now, double *pitch, double *roll)
{
	double g = 0;
	*pitch = h->pitch;
	*roll = h->roll;
	if (h->carry != 0) {
		double x = (now - h->carry_start) / h->carry_span;
		if (x >= 0 && x < 1) {
			double eased = (1 - cos(HAND_PI * x)) / 2;
			*pitch = h->carry_pitch + (h->pitch - h->carry_pitch) * eased;
			*roll = h->carry_roll + (h->roll - h->carry_roll) * eased;
		}
		if (x >= 1) {
			if (h->carry < 0) {
				h->hold = HOLD_TABLE;
				if (!h->turning)
					h->touchdown = h->carry_start + h->carry_span;
			}
			h->carry = 0;
		} else if (x >= 0 && !h->turning) {
			double a = HAND_CARRY_METRES * HAND_PI * HAND_PI * cos(HAND_PI * x) /
				   (2 * h->carry_span * h->carry_span) / HAND_G;
			/* Lowering: lighter as it sets off downwards, heavier as it stops. */
			g = h->carry > 0 ? a : -a;
		}
	}
	if (h->touchdown >= 0) {
		double t = now - h->touchdown;
		if (t > 5 * HAND_KNOCK_SECONDS)
			h->touchdown = -1;
		else if (t >= 0)
			g += HAND_KNOCK_G * exp(-t / HAND_KNOCK_SECONDS) * sin(2 * HAND_PI * HAND_KNOCK_HZ * t);
	}
	return g;
}

/* Raw values to report at CLOCK_MONOTONIC now. Draws noise unless fixed. */
__attribute__((unused)) static void hand_sample(struct hand *h, double now, long raw[3])
{
	if (h->exact || !h->has_target) {
		memcpy(raw, h->raw, sizeof h->raw);
		return;
	}
	double pitch, roll, noise[3] = {0, 0, 0};
	double weight = 1 + hand_carry_g(h, now, &pitch, &roll);
	if (h->hold == HOLD_HAND) {
		double t = now - h->start;
		pitch += hand_motion_at(&h->pitch_motion, t);
		roll += hand_motion_at(&h->roll_motion, t);
	}
	if (h->hold != HOLD_FIXED)
		for (int i = 0; i < 3; i++)
			noise[i] = h->sensor.noise[i] * hand_rng_gauss(&h->rng);
	hand_pose_raw(&h->sensor, h->matrix, pitch, roll, weight, noise, raw);
}

/* Whether samples change from one to the next (a fixed hold does not). */
__attribute__((unused)) static bool hand_moves(const struct hand *h)
{
	return h->has_target && !h->exact && h->hold != HOLD_FIXED;
}

/* The command channel (see the top of this file). */
struct hand_control {
	int cmd, ack;
	char buf[1024];
	size_t len;
};

static int hand_fifo(const char *dir, const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	unlink(path);
	if (mkfifo(path, 0600) < 0)
		die_errno("mkfifo %s", path);
	int fd = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		die_errno("opening %s", path);
	return fd;
}

/* The answer FIFO first: once cmd exists, a client can expect answers. */
__attribute__((unused)) static void hand_control_open(struct hand_control *c, const char *dir)
{
	c->len = 0;
	c->ack = hand_fifo(dir, "ack");
	c->cmd = hand_fifo(dir, "cmd");
}

static void hand_control_answer(struct hand_control *c, const char *seq, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void hand_control_answer(struct hand_control *c, const char *seq, const char *fmt, ...)
{
	char line[256];
	int n = snprintf(line, sizeof line, "%s ", seq);
	va_list ap;
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof line - 1)
		n = (int)sizeof line - 2;
	line[n++] = '\n';
	/* Short lines into a pipe the client drains: written whole or not at all. */
	if (write(c->ack, line, (size_t)n) != n)
		fprintf(stderr, "%s: cannot answer %s: %s\n", helper_name, seq, strerror(errno));
}

/* Applies one command line to h. Returns true when it changed what is
 * reported (the caller stores a sample, then calls hand_control_ack). */
static bool hand_apply(struct hand_control *c, struct hand *h, char *line, char *seq, size_t seq_size)
{
	char *words[16];
	int n = 0;
	for (char *w = strtok(line, " \t"); w && n < 16; w = strtok(NULL, " \t"))
		words[n++] = w;
	if (n == 0)
		return false;
	snprintf(seq, seq_size, "%s", words[0]);
	enum hand_hold hold;
	char *end;
	double v[11];
	if (n == 14 && strcmp(words[1], "pose") == 0 && hand_hold_parse(words[2], &hold)) {
		for (int i = 0; i < 11; i++) {
			v[i] = strtod(words[3 + i], &end);
			if (*end != '\0' || !isfinite(v[i])) {
				hand_control_answer(c, seq, "error not a number: %s", words[3 + i]);
				return false;
			}
		}
		h->hold = hold;
		h->pitch = v[0];
		h->roll = v[1];
		memcpy(h->matrix, v + 2, sizeof h->matrix);
		h->has_target = true;
		h->exact = false;
		return true;
	}
	if (n == 3 && strcmp(words[1], "hold") == 0 && hand_hold_parse(words[2], &hold)) {
		h->hold = hold;
		h->carry = 0;
		return true;
	}
	bool turn = strcmp(words[1], "turn") == 0;
	if ((((n == 4 || n == 6) && strcmp(words[1], "carry") == 0) || (n == 6 && turn)) &&
	    (strcmp(words[2], "down") == 0 || strcmp(words[2], "up") == 0)) {
		for (int i = 0; i < n - 3; i++) {
			v[i] = strtod(words[3 + i], &end);
			if (*end != '\0' || !isfinite(v[i])) {
				hand_control_answer(c, seq, "error not a number: %s", words[3 + i]);
				return false;
			}
		}
		double span = v[0];
		if (span < 0.1 || span > 10) {
			hand_control_answer(c, seq, "error a carry takes 0.1 to 10 seconds, not %s", words[3]);
			return false;
		}
		h->carry = words[2][0] == 'd' ? -1 : 1;
		if (!h->has_target || h->exact || (h->carry < 0 && h->hold == HOLD_FIXED)) {
			h->carry = 0;
			hand_control_answer(c, seq, "error only a pose held in a hand or lying on a table is carried");
			return false;
		}
		h->turning = turn;
		if (h->carry > 0)
			h->hold = HOLD_HAND;
		h->carry_start = monotonic_seconds();
		h->carry_span = span;
		h->carry_pitch = h->pitch;
		h->carry_roll = h->roll;
		if (n == 6) {
			h->pitch = v[1];
			h->roll = v[2];
		}
		return true;
	}
	if (n == 5 && strcmp(words[1], "raw") == 0) {
		long r[3];
		for (int i = 0; i < 3; i++) {
			r[i] = strtol(words[2 + i], &end, 10);
			if (*end != '\0') {
				hand_control_answer(c, seq, "error not an integer: %s", words[2 + i]);
				return false;
			}
			h->raw[i] = r[i] < h->sensor.min ? h->sensor.min : r[i] > h->sensor.max ? h->sensor.max : r[i];
		}
		h->has_target = true;
		h->exact = true;
		return true;
	}
	hand_control_answer(c, seq,
			    "error unknown command (pose HOLD PITCH ROLL M*9 | hold HOLD | raw X Y Z | "
			    "carry down|up SECONDS [PITCH ROLL] | turn down|up SECONDS PITCH ROLL)");
	return false;
}

/*
 * Reads what the FIFO holds and applies the next complete command. Returns
 * true when one changed what is reported: the caller makes it reach the
 * sensor, then answers with hand_control_ack(c, h, seq). False when no
 * complete command is waiting (malformed ones are answered and skipped).
 */
__attribute__((unused)) static bool hand_control_next(struct hand_control *c, struct hand *h, char *seq,
						      size_t seq_size)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			*nl = '\0';
			size_t used = (size_t)(nl - c->buf) + 1;
			char line[sizeof c->buf];
			memcpy(line, c->buf, used);
			memmove(c->buf, c->buf + used, c->len - used);
			c->len -= used;
			if (hand_apply(c, h, line, seq, seq_size))
				return true;
			continue;
		}
		if (c->len == sizeof c->buf)
			c->len = 0; /* a line longer than any command: drop it */
		ssize_t got = read(c->cmd, c->buf + c->len, sizeof c->buf - c->len);
		if (got <= 0)
			return false;
		c->len += (size_t)got;
	}
}

/* Answers a command hand_control_next applied: the target's raw values. */
__attribute__((unused)) static void hand_control_ack(struct hand_control *c, const struct hand *h,
						     const char *seq)
{
	long raw[3];
	if (h->exact) {
		memcpy(raw, h->raw, sizeof raw);
	} else {
		double none[3] = {0, 0, 0};
		hand_pose_raw(&h->sensor, h->matrix, h->pitch, h->roll, 1, none, raw);
	}
	hand_control_answer(c, seq, "%ld %ld %ld", raw[0], raw[1], raw[2]);
}

/* A helper started from a shell gets whatever descriptors it had open (the
 * writing end of another helper's FIFO, say), and would keep them open for
 * as long as it runs: close everything but stdin, stdout and stderr. */
__attribute__((unused)) static void close_inherited_descriptors(void)
{
	close_range(3, ~0U, 0);
}

#endif
