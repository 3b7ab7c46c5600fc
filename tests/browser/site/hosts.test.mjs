// The blog-host templates shipped in web/hosts/ render, with the real generators, to markup
// that loads and draws: the Hugo shortcode (hugo) and the Jekyll include (jekyll), each with
// the pinned site of this server as its base. The script tag comes once per page; a figure
// with no attributes shows its default poster until it draws, one with attributes a link.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSession, openPage, figuresSettled, canvasStats, root } from '../harness.mjs';

const VERSION = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version;
const has = (tool) => spawnSync(tool, [tool === 'hugo' ? 'version' : '--version'], { encoding: 'utf8' }).status === 0;
const LAYOUT = (title, content) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="/demos/favicon.svg"></head><body><main>${content}</main></body></html>\n`;

function run(tool, args, cwd) {
  const result = spawnSync(tool, args, { cwd, encoding: 'utf8', timeout: 120_000 });
  assert.equal(result.status, 0, `${tool} ${args.join(' ')}:\n${result.stdout}${result.stderr}`);
}

function buildHugo(dir, base) {
  mkdirSync(join(dir, 'layouts/_default'), { recursive: true });
  mkdirSync(join(dir, 'content'), { recursive: true });
  cpSync(join(root, 'web/hosts/hugo/layouts'), join(dir, 'layouts'), { recursive: true });
  writeFileSync(join(dir, 'config.toml'), 'baseURL = "http://127.0.0.1/"\n'
    + 'disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]\n'
    + `[params.gatelab]\nbase = "${base}"\n`);
  writeFileSync(join(dir, 'layouts/_default/single.html'), LAYOUT('{{ .Title }}', '{{ .Content }}'));
  writeFileSync(join(dir, 'layouts/_default/list.html'), LAYOUT('{{ .Title }}', '{{ .Content }}'));
  writeFileSync(join(dir, 'content/post.md'), `---\ntitle: A Hugo post\n---\nSome text.\n\n`
    + '{{< gatelab figure="exchange-plane" activation="gelu" seed="3" />}}\n\n'
    + '{{< gatelab figure="energy" >}}A *caption*.{{< /gatelab >}}\n');
  run('hugo', ['--quiet', '-d', 'out'], dir);
  return readFileSync(join(dir, 'out/post/index.html'), 'utf8');
}

function buildJekyll(dir, base) {
  mkdirSync(join(dir, '_layouts'), { recursive: true });
  cpSync(join(root, 'web/hosts/jekyll/_includes'), join(dir, '_includes'), { recursive: true });
  writeFileSync(join(dir, '_config.yml'), `gatelab:\n  base: ${base}\n`);
  writeFileSync(join(dir, '_layouts/default.html'), LAYOUT('{{ page.title }}', '{{ content }}'));
  writeFileSync(join(dir, 'post.md'), '---\ntitle: A Jekyll post\nlayout: default\n---\nSome text.\n\n'
    + '{% include gatelab.html figure="exchange-plane" activation="gelu" seed="3" %}\n\n'
    + '{% include gatelab.html figure="energy" caption="A <caption>." %}\n');
  run('jekyll', ['build', '--quiet', '-s', dir, '-d', join(dir, '_site')], dir);
  return readFileSync(join(dir, '_site/post.html'), 'utf8');
}

describe('blog-host templates (web/hosts/)', () => {
  let session;
  let work;
  const routes = {};
  before(async () => {
    session = await startSession({ routes });
    work = mkdtempSync(join(tmpdir(), 'gatelab-hosts-'));
  });
  after(async () => {
    await session?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  for (const [name, build] of [['hugo', buildHugo], ['jekyll', buildJekyll]]) {
    it(`the ${name} template renders to markup that loads and draws`,
      { skip: !has(name) && `${name} is not installed (scripts/setup.sh installs it)` }, async () => {
      const base = `${session.server.url}gatelab@${VERSION}/`;
      const html = build(join(work, name), base);
      assert.equal(html.match(/<script type="module" src="[^"]+gatelab\.embed\.js"><\/script>/g)?.length, 1,
        'one script tag');
      assert.match(html, /<gatelab-exchange-plane activation="gelu" seed="3">/);
      assert.match(html, new RegExp(`<img slot="poster" src="${base}dist/posters/gatelab-energy\\.png"`));
      routes[`/${name}/post.html`] = { body: html };
      const { page, context, problems } = await openPage(session.browser);
      await page.goto(`${session.server.url}${name}/post.html`);
      await figuresSettled(page, 'gatelab-exchange-plane, gatelab-energy');
      assert.deepEqual(await page.locator('gatelab-exchange-plane').evaluate((el) => [el.activation, el.seed]),
        ['gelu', 3]);
      for (const tag of ['gatelab-exchange-plane', 'gatelab-energy']) {
        assert.ok((await canvasStats(page, tag)).every((c) => c.distinctColors > 8), `${tag} drew`);
      }
      assert.match(await page.locator('gatelab-energy').textContent(), /caption/);
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
});
