// Where <gatelab-lm>'s text is served: web/dist/lm-text.txt (the first 339,181 bytes of
// data/lm/sotu-1790-1880.txt, copied there by scripts/bundle.mjs), found relative to this module
// so the site serves it itself and no other host is asked. The embed bundle, whose module is
// web/dist/gatelab.embed.js, swaps in lm-text-url.embed.js (scripts/bundle.mjs).
export const LM_TEXT_URL = new URL('../../../dist/lm-text.txt', import.meta.url);
