// The one YAML reader and writer lives in content/ (shared with the server's batch endpoint).
export { dumpYaml, isMapping, loadYaml, sameYaml, type YamlResult } from '../content/index.js';
