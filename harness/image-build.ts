// `npm run image`: builds the landlord image from the Dockerfile with buildah (no Docker daemon),
// making its node base image locally first, and prints the image's ID and size.
// `npm run image -- --force` builds even when storage holds the image of this very tree.
import { ensureHostPackages } from './image/buildah.js';
import { ensureImage } from './image/build.js';

const started = Date.now();
await ensureHostPackages(console.error);
const image = await ensureImage({ force: process.argv.includes('--force') });
const seconds = Math.round((Date.now() - started) / 1000);
console.log(`image: ${image.name}`);
console.log(`id: ${image.id}`);
console.log(`size: ${image.size}`);
console.log(image.built ? `built in ${seconds}s` : `unchanged since it was built (checked in ${seconds}s)`);
