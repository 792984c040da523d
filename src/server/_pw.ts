import { parseMarkdown } from '../content/index.js';
export default function (s: string) { return parseMarkdown(s).children.length; }
