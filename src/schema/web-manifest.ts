/**
 * The web app manifests the build writes (src/render/pages/app.ts), checked before they are
 * published: what a browser needs to install the pages as an app (W3C Web Application Manifest:
 * name, short_name, start_url and scope, display, colours, icons of 192 and 512 pixels), and both
 * purposes of icon, "any" and "maskable". Paths are relative to the manifest's own URL.
 */
import { z } from "zod";

const Colour = z.string().regex(/^#[0-9a-f]{6}$/);
const Icon = z.strictObject({
  src: z.string().regex(/^(\.\.?\/)+icons\/[a-z]+-\d+\.png$/),
  sizes: z.string().regex(/^\d+x\d+$/),
  type: z.literal("image/png"),
  purpose: z.enum(["any", "maskable"]),
});

export const WebAppManifest = z
  .strictObject({
    id: z.string().min(1),
    name: z.string().min(1),
    short_name: z.string().min(1).max(24),
    description: z.string().min(1),
    lang: z.enum(["en", "ar"]),
    dir: z.enum(["ltr", "rtl"]),
    start_url: z.string().min(1),
    scope: z.string().min(1),
    display: z.literal("standalone"),
    theme_color: Colour,
    background_color: Colour,
    user_preferences: z.strictObject({
      color_scheme_dark: z.strictObject({ theme_color: Colour, background_color: Colour }),
    }),
    icons: z.array(Icon).min(1),
  })
  .superRefine((m, ctx) => {
    for (const purpose of ["any", "maskable"] as const)
      for (const size of ["192x192", "512x512"])
        if (!m.icons.some((i) => i.purpose === purpose && i.sizes === size))
          ctx.addIssue({ code: "custom", path: ["icons"], message: `no ${purpose} icon of ${size}` });
    if ((m.lang === "ar") !== (m.dir === "rtl"))
      ctx.addIssue({ code: "custom", path: ["dir"], message: `${m.dir} is not ${m.lang}'s direction` });
  });
export type WebAppManifest = z.infer<typeof WebAppManifest>;
