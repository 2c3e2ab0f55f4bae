/**
 * Cross-origin access for the endpoints the credit widget calls from an integrator's page (GET
 * {business_v1_base}/profile with the tenant token as a bearer). No cookies are involved, so in demo
 * any origin may call them (`Access-Control-Allow-Origin: *`); production allows the origins of
 * WIDGET_EMBED_ORIGINS only. The same setting decides who may frame embed.html (frame-ancestors).
 */
import cors from 'cors';
import type { RequestHandler } from 'express';
import type { AppConfig } from '../../kernel/config.js';

const WIDGET_API_PATHS = ['/api/business/v1/profile'];

/** The origins allowed to embed the widget: the configured ones, else any in demo and none in production. */
export function widgetEmbedOrigins(config: Pick<AppConfig, 'WIDGET_EMBED_ORIGINS' | 'DEPLOY_ENV'>): string[] {
  return config.WIDGET_EMBED_ORIGINS ?? (config.DEPLOY_ENV === 'demo' ? ['*'] : []);
}

/** The frame-ancestors source list of embed.html ('none' when no origin may embed it). */
export function frameAncestors(origins: string[]): string {
  return origins.length === 0 ? "'none'" : origins.join(' ');
}

/** Answers preflights and marks responses of the widget's API paths for the allowed origins. */
export function widgetCors(origins: string[]): RequestHandler {
  const answer = cors({
    origin: origins.includes('*') ? '*' : origins,
    methods: ['GET'],
    allowedHeaders: ['Authorization', 'Service-tenant-id'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
  return (req, res, next) => (WIDGET_API_PATHS.includes(req.path.replace(/\/+$/, '')) ? answer(req, res, next) : next());
}
