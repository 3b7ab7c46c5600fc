// Runs one C++ benchmark built as a browser module (bench/CMakeLists.txt: <name>_web):
// message { url, args } → { stdout } (its JSON) or { error }.
self.onmessage = async ({ data: { url, args } }) => {
  try {
    const { default: createBench } = await import(url);
    const lines = [];
    const module = await createBench({ noInitialRun: true, print: (line) => lines.push(line),
      printErr: (line) => console.log(line), locateFile: (file) => new URL(file, url).href });
    const status = module.callMain(args);
    if (status) throw new Error(`exit status ${status}`);
    self.postMessage({ stdout: lines.join('\n') });
  } catch (error) {
    self.postMessage({ error: String(error?.message ?? error) });
  }
};
