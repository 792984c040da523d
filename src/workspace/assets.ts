import { ASSETS } from './paths.js';

/** Content types by file extension, for files read from a folder (which records none). */
const TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  avif: 'image/avif',
  ico: 'image/x-icon',
  pdf: 'application/pdf',
  json: 'application/json',
  txt: 'text/plain',
  csv: 'text/csv',
  zip: 'application/zip',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mp3: 'audio/mpeg',
  yaml: 'application/yaml',
  yml: 'application/yaml',
};

/** The content type a file of this name is read with; `application/octet-stream` if unknown. */
export function contentTypeOf(name: string): string {
  const ext = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase();
  return (ext && TYPES[ext]) ?? 'application/octet-stream';
}

/** The file an asset is stored in, relative to the root. */
export const assetPath = (name: string) => ASSETS + name;

/** Whether a file name can be an asset path: one path segment, not `.` or `..`. */
export const isAssetName = (name: string) => name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !name.includes('\\');
