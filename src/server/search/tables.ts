import type { Generated, Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/** The search tables of migration 0003 as Kysely sees them. */
// A type alias, not an interface: withTables<T> wants T indexable by table name.
export type SearchTables = {
  search_spaces: { space_id: string; revision_id: string };
  search_pages: { space_id: string; page_id: string; digest: string };
  search_sections: {
    id: Generated<number>;
    space_id: string;
    page_id: string;
    position: number;
    anchor: string;
    title: string;
    body: string;
    page_title: string;
    page_path: string;
  };
};

export type SearchDb = Kysely<Database & SearchTables>;

export const searchDb = (db: Kysely<Database>): SearchDb => db.withTables<SearchTables>();
