// The slider's scale for the daemon's Sensitivity property, a factor on the
// configured speed from 0.25 to 4 (tiltscrolld(8)). The scale is logarithmic
// so that halving and doubling are the same distance from the default 1,
// which sits in the middle.

export const MINIMUM = 0.25;
export const MAXIMUM = 4;

// Within this ratio of 1 the slider snaps to the default, so it can be found
// again by hand.
const SNAP_TO_DEFAULT = 1.04;

/**
 * @param {number} position - the slider's value, 0 to 1
 * @returns {number} the factor, rounded to hundredths and within range
 */
export function factorForPosition(position) {
    const clamped = Math.min(Math.max(position, 0), 1);
    const factor = MINIMUM * Math.pow(MAXIMUM / MINIMUM, clamped);
    if (factor < SNAP_TO_DEFAULT && factor > 1 / SNAP_TO_DEFAULT)
        return 1;
    return Math.min(Math.max(Math.round(factor * 100) / 100, MINIMUM), MAXIMUM);
}

/**
 * @param {number} factor - a Sensitivity value
 * @returns {number} the slider's value for it, 0 to 1
 */
export function positionForFactor(factor) {
    if (!Number.isFinite(factor) || factor <= 0)
        return 0.5;
    const position = Math.log(factor / MINIMUM) / Math.log(MAXIMUM / MINIMUM);
    return Math.min(Math.max(position, 0), 1);
}

/**
 * @param {number} factor - a Sensitivity value
 * @returns {string} the factor as the menu shows it, e.g. "1.5×"
 */
export function formatFactor(factor) {
    return `${factor.toFixed(factor < 1 ? 2 : 1)}×`;
}
