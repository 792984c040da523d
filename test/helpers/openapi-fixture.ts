import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A spec in YAML whose response schema is a `$ref` to a second file of the same origin. */
export const PETS_V1 = `openapi: 3.0.3
info:
  title: Pets
  version: "1.0"
tags:
  - name: pets
    description: Everything about pets
paths:
  /pets:
    get:
      tags: [pets]
      operationId: listPets
      summary: List pets
      parameters:
        - name: limit
          in: query
          required: false
          schema: { type: integer }
      responses:
        "200":
          description: The pets
          content:
            application/json:
              schema:
                type: array
                items: { $ref: "schemas/pet.yaml" }
`;

export const PET_SCHEMA = `type: object
required: [name]
properties:
  name: { type: string }
  tag: { type: string }
`;

/** The same API with one more operation. */
export const PETS_V2 = `${PETS_V1}    post:
      tags: [pets]
      operationId: createPet
      summary: Create a pet
      requestBody:
        content:
          application/json:
            schema: { $ref: "schemas/pet.yaml" }
      responses:
        "201":
          description: Created
`;

/** Valid YAML, not a valid OpenAPI document: `info.version` is missing. */
export const INVALID_SPEC = 'openapi: 3.0.3\ninfo:\n  title: Broken\npaths: {}\n';

export interface SpecFixture {
  url: string;
  /** Path to text; change it to serve a new content. */
  files: Map<string, string>;
  /**
   * Requests to this path are held, never answered (a fetch that hangs until its timeout, or a job
   * caught mid-fetch); `asked` resolves when the first one arrives, the event a test waits for
   * instead of a delay.
   */
  slow: { path: string; asked: Promise<void> };
  close(): Promise<void>;
}

/** A loopback HTTP server serving spec files, for the processing job to fetch. */
export async function startSpecFixture(): Promise<SpecFixture> {
  const files = new Map<string, string>([
    ['/api/openapi.yaml', PETS_V1],
    ['/api/schemas/pet.yaml', PET_SCHEMA],
    ['/api/invalid.yaml', INVALID_SPEC],
    ['/api/slow.yaml', PETS_V1],
  ]);
  let asked: () => void = () => undefined;
  const slow = { path: '/api/slow.yaml', asked: new Promise<void>((resolve) => (asked = resolve)) };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const text = files.get(path);
    const answer = () => {
      if (text === undefined) res.writeHead(404).end('not found');
      else res.writeHead(200, { 'content-type': 'application/yaml' }).end(text);
    };
    if (path === slow.path) {
      asked();
      return; // held until the client gives up or `close` ends the connection
    }
    answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    files,
    slow,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
