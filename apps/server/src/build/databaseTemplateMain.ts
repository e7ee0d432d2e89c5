// The build's step that writes the empty database template (`node apps/server/dist/build/databaseTemplateMain.js`).
import { writeDatabaseTemplate } from './writeDatabaseTemplate.js';

await writeDatabaseTemplate();
