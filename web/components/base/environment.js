// A figure's surroundings, watched for the base class (gatelab-figure.js): the reader's colour
// scheme and motion preference, and whether the reader can see the figure now — on screen (no
// margin, unlike the lazy start) and in a visible tab. Training figures run only then, through
// the base class's screenChanged(onScreen) hook, so no figure keeps an observer of its own.

/**
 * Watches the figure's surroundings: reducedMotion, the dark scheme (refreshTheme), the canvas
 * resolution (fitter) and the screen (screenChanged). Returns the cleanups.
 */
export function watchEnvironment(figure, fitter) {
  const cleanups = [];
  const watch = (query, onChange) => {
    const list = matchMedia(query);
    onChange(list.matches);
    const listener = (event) => onChange(event.matches);
    list.addEventListener('change', listener);
    cleanups.push(() => list.removeEventListener('change', listener));
  };
  watch('(prefers-reduced-motion: reduce)', (matches) => (figure.reducedMotion = matches));
  watch('(prefers-color-scheme: dark)', () => figure.refreshTheme());
  fitter.watchResolution();
  cleanups.push(() => fitter.stop(), watchScreen(figure, (onScreen) => figure.screenChanged(onScreen)));
  return cleanups;
}

/** Calls onChange(onScreen) whenever it changes (first call when the observer reports); returns the cleanup. */
export function watchScreen(element, onChange) {
  let intersecting = typeof IntersectionObserver !== 'function';
  let last = null;
  const report = () => {
    const onScreen = intersecting && document.visibilityState !== 'hidden';
    if (onScreen !== last) onChange((last = onScreen));
  };
  const observer = typeof IntersectionObserver === 'function' ? new IntersectionObserver((entries) => {
    intersecting = entries.at(-1).isIntersecting;
    report();
  }) : null;
  observer?.observe(element);
  if (!observer) report();
  document.addEventListener('visibilitychange', report);
  return () => {
    observer?.disconnect();
    document.removeEventListener('visibilitychange', report);
  };
}
