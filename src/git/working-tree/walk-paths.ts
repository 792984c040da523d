import { join } from 'node:path';
import { type Keep, walkWorkingTree } from './walk-working-tree.js';
import { lstatOrNull } from './working-file.js';

/**
 * The files and symbolic links that walkWorkingTree(dir, keep) would find at `paths` and under
 * those that are folders, without walking the rest: a path counts when each folder on the way
 * to it is a real folder (not a link to one) that `keep` keeps, as the walk descends only
 * into those; a folder among `paths` is walked itself.
 */
export async function walkPaths(dir: string, paths: readonly string[], keep: Keep): Promise<Set<string>> {
  const found = new Set<string>();
  const reached = new Map<string, Promise<boolean>>();
  const reach = (folder: string): Promise<boolean> => {
    let known = reached.get(folder);
    if (known === undefined) reached.set(folder, (known = reachFolder(folder)));
    return known;
  };
  const reachFolder = async (folder: string): Promise<boolean> => {
    const slash = folder.lastIndexOf('/');
    if (slash > 0 && !(await reach(folder.slice(0, slash)))) return false;
    return lstatOrNull(join(dir, folder))?.isDirectory() === true && (await keep(folder));
  };

  for (const path of paths) {
    const slash = path.lastIndexOf('/');
    if (slash > 0 && !(await reach(path.slice(0, slash)))) continue;
    const stat = lstatOrNull(join(dir, path));
    if (stat === null || !(stat.isDirectory() || stat.isFile() || stat.isSymbolicLink()) || !(await keep(path))) continue;
    if (!stat.isDirectory()) {
      found.add(path);
      continue;
    }
    for (const inner of await walkWorkingTree(join(dir, path), (under) => keep(`${path}/${under}`))) found.add(`${path}/${inner}`);
  }
  return found;
}
