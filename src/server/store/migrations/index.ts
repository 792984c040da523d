import type { Migration, MigrationProvider } from 'kysely';
import * as core from './0001-core.js';
import * as content from './0002-content.js';
import * as search from './0003-search.js';
import * as sites from './0006-sites.js';
import * as comments from './0004-comments.js';
import * as membersTeams from './0005-members-teams.js';
import * as documentFacts from './0008-document-facts.js';
import * as part2Rest from './0010-specs-sso-translations-integrations.js';
import * as webSessions from './0011-web-sessions.js';
import * as events from './0012-events.js';
import * as eventHorizon from './0013-event-horizon.js';
import * as rateLimits from './0015-rate-limits.js';
import * as integrationTargets from './0016-integration-targets.js';

/** Every migration, in order. Static imports keep the built package free of directory scans. */
const MIGRATIONS: Record<string, Migration> = {
  '0001-core': core,
  '0002-content': content,
  '0003-search': search,
  '0006-sites': sites,
  '0004-comments': comments,
  '0005-members-teams': membersTeams,
  '0008-document-facts': documentFacts,
  '0010-specs-sso-translations-integrations': part2Rest,
  '0011-web-sessions': webSessions,
  '0012-events': events,
  '0013-event-horizon': eventHorizon,
  '0015-rate-limits': rateLimits,
  '0016-integration-targets': integrationTargets,
};

export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
