/**
 * sharp, set up once for this process (record 015). libvips keeps a cache of recent operations
 * and their pixels (50 MB by default) and runs each image on as many threads as there are cores:
 * the shop never processes the same image twice, and its image work is queued per request, so the
 * cache is off (memory goes back after a burst) and each image gets one thread (two queued photos
 * leave the other cores to the web server).
 */
import sharp from "sharp";

sharp.cache(false);
sharp.concurrency(1);

export default sharp;
