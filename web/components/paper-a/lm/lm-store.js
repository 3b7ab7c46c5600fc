// <gatelab-lm>'s checkpoints in IndexedDB, so a reload resumes where training stood: one record
// per run, keyed [state key, run key] (lm-schema.js stateKey: a changed setting finds nothing and
// starts afresh). A record holds the session's checkpoint bytes (lab.lm restore() resumes bit for
// bit) and what the figure drew of it. Storage may be missing or refused (private windows, a
// sandboxed frame, a full disk): every method then quietly does nothing, and the figure trains
// from step 0 after a reload, as it would without storage.

const DB_NAME = 'gatelab-lm';
const STORE = 'runs';
const MAX_AGE_MS = 14 * 24 * 3600 * 1000;  // records not written for two weeks are dropped

let opening = null;

function request(r) {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}

function done(tx) {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** The database (opened once a page), or null where IndexedDB cannot be used. */
function database() {
  opening ??= (async () => {
    if (typeof indexedDB === 'undefined') return null;
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(STORE);
    const db = await request(open);
    await dropOld(db).catch(() => {});
    return db;
  })().catch((error) => {
    console.warn(`gatelab-lm: no checkpoints in IndexedDB (${error?.message ?? error}); a reload starts afresh`);
    return null;
  });
  return opening;
}

async function dropOld(db) {
  const tx = db.transaction(STORE, 'readwrite');
  const store = tx.objectStore(STORE);
  const cutoff = Date.now() - MAX_AGE_MS;
  const cursorRequest = store.openCursor();
  cursorRequest.onsuccess = () => {
    const cursor = cursorRequest.result;
    if (!cursor) return;
    if (!(cursor.value?.savedAt > cutoff)) cursor.delete();
    cursor.continue();
  };
  await done(tx);
}

const range = (key) => IDBKeyRange.bound([key, ''], [key, '\uffff']);

export const lmStore = {
  /** The saved runs of a state: Map run key → { step, bytes, points, sample, seconds }; empty when none. */
  async load(key) {
    const runs = new Map();
    try {
      const db = await database();
      if (!db) return runs;
      const tx = db.transaction(STORE, 'readonly');
      const store = tx.objectStore(STORE);
      const [keys, values] = await Promise.all([request(store.getAllKeys(range(key))),
        request(store.getAll(range(key)))]);
      keys.forEach((k, i) => runs.set(k[1], values[i]));
    } catch (error) {
      console.warn(`gatelab-lm: could not read checkpoints (${error?.message ?? error})`);
    }
    return runs;
  },

  /** Saves one run's record; false when it could not be stored. */
  async save(key, runKey, record) {
    try {
      const db = await database();
      if (!db) return false;
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).put({ ...record, savedAt: Date.now() }, [key, runKey]);
      await done(tx);
      return true;
    } catch (error) {
      console.warn(`gatelab-lm: could not save a checkpoint (${error?.message ?? error})`);
      return false;
    }
  },

  /** Forgets every run of a state (the figure's "Start over"). */
  async clear(key) {
    try {
      const db = await database();
      if (!db) return;
      const tx = db.transaction(STORE, 'readwrite');
      tx.objectStore(STORE).delete(range(key));
      await done(tx);
    } catch (error) {
      console.warn(`gatelab-lm: could not clear checkpoints (${error?.message ?? error})`);
    }
  },
};
