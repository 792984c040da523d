import { runParseTask, type ParseResult, type ParseTask } from './tasks.js';

/** The worker thread's entry (piscina calls the default export once per task). */
export default function parseWorker(task: ParseTask): Promise<ParseResult> {
  return runParseTask(task);
}
