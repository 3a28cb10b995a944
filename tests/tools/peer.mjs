// Where the reference kit lives: $LOCKSTEP_PEER_DIR, default
// ~/.cache/lockstep-peer (the Dawn runner and lib/kit.mjs, installed there by
// its setup script). The tools import from it only through this path.
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const PEER_DIR = process.env.LOCKSTEP_PEER_DIR || path.join(os.homedir(), '.cache', 'lockstep-peer');

export async function importPeer(rel) {
  return import(pathToFileURL(path.join(PEER_DIR, rel)).href);
}
