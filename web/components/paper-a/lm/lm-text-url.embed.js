// lm-text-url.js inside the embed bundle: the bundle is web/dist/gatelab.embed.js, beside the text.
export const LM_TEXT_URL = new URL('./lm-text.txt', import.meta.url);
